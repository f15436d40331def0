/** Spaces: unique names per user; deleting one deletes its links. */
import type { Page, PageRequest } from '../db/paging.js'
import type { SpaceRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { cascadeDeletes, changedFields, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import { toSpaceRecord } from './record.js'
import type { SpaceInput } from './schema.js'
import type { SpaceFields, SpaceFilter, SpaceStore } from './store.js'

export class SpaceService {
  constructor(
    private readonly store: SpaceStore,
    private readonly linksOf: LinkSnapshotsOf,
    private readonly events: DomainEvents,
    private readonly now: () => number = Date.now,
  ) {}

  list(userId: number, filter: SpaceFilter, page: PageRequest): Promise<Page<SpaceRow>> {
    return this.store.list(userId, filter, page)
  }

  async get(userId: number, id: number): Promise<SpaceRow> {
    const space = await this.store.find(userId, id)
    if (!space) throw new NotFoundError()
    return space
  }

  findMany(userId: number, ids: number[]): Promise<SpaceRow[]> {
    return this.store.findMany(userId, ids)
  }

  async create(userId: number, input: SpaceInput, errors = new FieldErrors()): Promise<SpaceRow> {
    if (input.name === undefined && !errors.has('name'))
      errors.add('name', 'The name field is required.')
    const fields = await this.fields(userId, input, errors, null)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const space = await this.store.create(userId, { color: 1, ...fields } as SpaceFields, now)
        await raise({
          type: 'space.created',
          userId,
          at: now,
          data: { space: toSpaceRecord(space) },
        })
        return space
      }),
    )
  }

  async update(
    userId: number,
    id: number,
    input: SpaceInput,
    errors = new FieldErrors(),
  ): Promise<SpaceRow> {
    const space = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, space.id)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const updated = await this.store.update(space.id, fields, now)
        const record = toSpaceRecord(updated)
        const changed = changedFields(toSpaceRecord(space), record)
        await raise({ type: 'space.updated', userId, at: now, data: { space: record, changed } })
        return updated
      }),
    )
  }

  async delete(userId: number, id: number): Promise<SpaceRow> {
    const space = await this.get(userId, id)
    const now = this.now()
    await this.events.commit(async (raise) => {
      // Its links go with it (phpShort's rule): each raises its own link.deleted.
      const gone = await this.linksOf({ spaceId: space.id })
      await this.store.delete(space.id)
      await raise(...cascadeDeletes(gone, 'space', now), {
        type: 'space.deleted',
        userId,
        at: now,
        data: { space: toSpaceRecord(space) },
      })
    })
    return space
  }

  private async fields(
    userId: number,
    input: SpaceInput,
    errors: FieldErrors,
    selfId: number | null,
  ): Promise<Partial<SpaceFields>> {
    const fields: Partial<SpaceFields> = {}
    if (input.name !== undefined && !errors.has('name')) {
      const other = await this.store.findByName(userId, input.name)
      if (other && other.id !== selfId) errors.add('name', takenMessage('name'))
      fields.name = input.name
    }
    if (input.color !== undefined) fields.color = input.color
    return fields
  }
}
