/**
 * Raises domain events inside the transaction of the change: listeners registered with
 * `withinTransaction` (the webhook outbox) write in that same transaction, so the change and
 * its events commit together; listeners registered with `afterCommit` (the redirect cache)
 * hear of an event once it is committed, and never of a change that was rolled back.
 */
import type { Db } from '../db/connect.js'
import type { DomainEvent } from './types.js'

export type TransactionalListener = (events: DomainEvent[]) => Promise<void>
export type CommittedListener = (event: DomainEvent) => void

/** Hands the events of a unit of work to the bus. */
export type Raise = (...events: DomainEvent[]) => Promise<void>

export class DomainEvents {
  private readonly inTransaction: TransactionalListener[] = []
  private readonly committed: CommittedListener[] = []

  constructor(private readonly db: Db) {}

  withinTransaction(listener: TransactionalListener): void {
    this.inTransaction.push(listener)
  }

  afterCommit(listener: CommittedListener): () => void {
    this.committed.push(listener)
    return () => {
      const i = this.committed.indexOf(listener)
      if (i !== -1) this.committed.splice(i, 1)
    }
  }

  /**
   * Runs `work` in one transaction; the events it raises are written by the transactional
   * listeners before the commit and published to the others after it.
   */
  async commit<T>(work: (raise: Raise) => Promise<T>): Promise<T> {
    const raised: DomainEvent[] = []
    const result = await this.db.transaction(async () => {
      const value = await work(async (...events) => {
        raised.push(...events)
        for (const listener of this.inTransaction) await listener(events)
      })
      return value
    })
    for (const event of raised) for (const listener of this.committed) listener(event)
    return result
  }
}
