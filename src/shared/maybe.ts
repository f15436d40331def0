/**
 * Values that are ready now or later. The redirect answers a cached link synchronously and
 * only waits when it must (a cache miss, a remote counter); `then` continues either way without
 * allocating a promise on the synchronous path.
 */
export type Maybe<T> = T | Promise<T>

export function then<T, U>(value: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return value instanceof Promise ? value.then(next) : next(value)
}
