/**
 * Rotation: round-robin over the main URL and the rotation entries. The position to use comes
 * from a counter the caller keeps and advances atomically (across processes), so choosing stays
 * a pure function of the counter.
 */

/** How many positions a rotation cycle has: the main URL plus each rotation entry. */
export function rotationCycleLength(rotationEntries: number): number {
  return Math.max(0, Math.trunc(rotationEntries)) + 1
}

/**
 * The position in a cycle of `length` for any counter value: negative values, values past
 * `Number.MAX_SAFE_INTEGER` and bigints wrap like the counter had been taken modulo `length`
 * all along; a counter that is not a finite number starts the cycle over.
 */
export function rotationPosition(counter: number | bigint, length: number): number {
  if (length <= 1) return 0
  if (typeof counter === 'bigint') {
    const n = BigInt(length)
    return Number(((counter % n) + n) % n)
  }
  if (!Number.isFinite(counter)) return 0
  return ((Math.trunc(counter) % length) + length) % length
}

/** The destination at the counter's position of a cycle (`[url, ...rotation values]`). */
export function rotationDestination(cycle: readonly string[], counter: number | bigint): string {
  const destination = cycle[rotationPosition(counter, cycle.length)]
  if (destination === undefined) throw new RangeError('A rotation cycle needs the main URL')
  return destination
}
