/**
 * What the services of a user's named rows share (spaces, tags, pixels, UTM templates): a page
 * of them, one of them (unknown or another user's: not found), the required fields of a
 * create, the check that a name is free, and a write that commits with its events and reports
 * a name taken meanwhile as taken. Each service keeps its own fields, events and what a delete
 * takes with it.
 */
import type { DomainEvents, Raise } from '../events/bus.js'
import { NotFoundError, type FieldErrors } from '../shared/errors.js'
import type { NamedRowReads } from '../db/named-rows.js'
import type { Page, PageRequest } from '../db/paging.js'
import { takenMessage, writeUnique } from '../db/unique.js'

/** A unit of work in the transaction of a write, at the write's instant. */
export type Work<T> = (raise: Raise, now: number) => Promise<T>

export abstract class NamedRowService<
  Row extends { id: number },
  Filter,
  Store extends NamedRowReads<Row, Filter>,
> {
  constructor(
    protected readonly store: Store,
    protected readonly events: DomainEvents,
    protected readonly now: () => number,
  ) {}

  list(userId: number, filter: Filter, page: PageRequest): Promise<Page<Row>> {
    return this.store.list(userId, filter, page)
  }

  async get(userId: number, id: number): Promise<Row> {
    const row = await this.store.find(userId, id)
    if (!row) throw new NotFoundError()
    return row
  }

  /** Reports each of `fields` that a create's input lacks (unless it has an error already). */
  protected require<F extends string>(
    input: Partial<Record<F, unknown>>,
    fields: readonly F[],
    errors: FieldErrors,
  ): void {
    for (const field of fields) {
      if (input[field] === undefined && !errors.has(field))
        errors.add(field, `The ${field} field is required.`)
    }
  }

  /**
   * The given name as fields to write (none when not given or already in error), reported as
   * taken when another of the user's rows than `selfId` has it.
   */
  protected async freeName(
    userId: number,
    name: string | undefined,
    selfId: number | null,
    errors: FieldErrors,
  ): Promise<{ name?: string }> {
    if (name === undefined || errors.has('name')) return {}
    await this.checkNameFree(userId, name, selfId, errors)
    return { name }
  }

  /** Reports `name` as taken when another of the user's rows than `selfId` has it. */
  protected async checkNameFree(
    userId: number,
    name: string,
    selfId: number | null,
    errors: FieldErrors,
  ): Promise<void> {
    const other = await this.store.findByName(userId, name)
    if (other && other.id !== selfId) errors.add('name', takenMessage('name'))
  }

  /**
   * Fails with the errors found so far; else runs `work` in one transaction with its events,
   * where the name's unique index refusing a name taken meanwhile reports it as taken.
   */
  protected write<T>(errors: FieldErrors, work: Work<T>): Promise<T> {
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () => this.events.commit((raise) => work(raise, now)))
  }

  /** Deletes the user's row `id` with `work`, in one transaction with its events. */
  protected async remove(
    userId: number,
    id: number,
    work: (row: Row, raise: Raise, now: number) => Promise<void>,
  ): Promise<Row> {
    const row = await this.get(userId, id)
    const now = this.now()
    await this.events.commit((raise) => work(row, raise, now))
    return row
  }
}
