/**
 * Rotation counters: the next position of a link's round-robin. In one process a counter in
 * memory, seeded from the stored `last_rotation` and written back with the clicks. Several
 * processes share one counter instead (src/cluster/rotation.ts).
 */
import type { MaybePromise } from '../shared/maybe-promise.js'

export interface RotationCounter {
  /** The position for this click, from 0 to `cycleLength - 1`. */
  next(linkId: number, cycleLength: number, lastRotation: number | null): MaybePromise<number>
  /** Positions changed since the last call, to persist as `last_rotation`. */
  drainChanged(): Map<number, number>
}

export class LocalRotationCounter implements RotationCounter {
  private readonly counters = new Map<number, number>()
  private changed = new Map<number, number>()

  next(linkId: number, cycleLength: number, lastRotation: number | null): number {
    const previous = this.counters.get(linkId) ?? lastRotation ?? -1
    const position = (previous + 1) % Math.max(1, cycleLength)
    this.counters.set(linkId, position)
    this.changed.set(linkId, position)
    return position
  }

  drainChanged(): Map<number, number> {
    const changed = this.changed
    this.changed = new Map()
    return changed
  }
}
