/**
 * A value that is ready now or only later. The redirect answers a cached link synchronously and
 * only waits when it must (a cache miss, a remote counter); `whenReady` continues either way
 * without allocating a promise on the synchronous path.
 */
export type MaybePromise<T> = T | Promise<T>

export function whenReady<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}
