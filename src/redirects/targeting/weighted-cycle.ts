/**
 * Weighted rotation: smooth weighted round-robin (as nginx balances upstreams) laid out once as
 * a cycle of `sum of weights` positions, so a visit's destination stays a pure function of the
 * shared counter (`rotationDestination(cycle, n)`). In every run of that many consecutive
 * positions each destination appears exactly its weight times, spread evenly: weights 50/30/20
 * give a b a c a b a b c a … rather than fifty a's in a row.
 */

export interface Weighted<T> {
  readonly item: T
  readonly weight: number
}

/**
 * The cycle of smooth weighted round-robin over `entries`: at each step every entry gains its
 * weight, the one with the most (the first on a tie) is chosen and pays the total back.
 * Entries without a positive integer weight take no position.
 */
export function weightedCycle<T>(entries: readonly Weighted<T>[]): T[] {
  const live = entries.filter((e) => Number.isInteger(e.weight) && e.weight > 0)
  const total = live.reduce((sum, e) => sum + e.weight, 0)
  const current = live.map(() => 0)
  const cycle: T[] = []
  for (let step = 0; step < total; step++) {
    let best = 0
    for (let i = 0; i < live.length; i++) {
      current[i]! += live[i]!.weight
      if (current[i]! > current[best]!) best = i
    }
    current[best]! -= total
    cycle.push(live[best]!.item)
  }
  return cycle
}
