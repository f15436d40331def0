/** Spaces: unique names per user; deleting one deletes its links. */
import { NamedRowService } from '../resources/named-row-service.js'
import type { SpaceRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { cascadeDeletes, changedFields, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors } from '../shared/errors.js'
import { toSpaceRecord } from './record.js'
import type { SpaceInput } from './schema.js'
import type { SpaceFields, SpaceFilter, SpaceStore } from './store.js'

export class SpaceService extends NamedRowService<SpaceRow, SpaceFilter, SpaceStore> {
  constructor(
    store: SpaceStore,
    private readonly linksOf: LinkSnapshotsOf,
    events: DomainEvents,
    now: () => number = Date.now,
  ) {
    super(store, events, now)
  }

  findMany(userId: number, ids: number[]): Promise<SpaceRow[]> {
    return this.store.findMany(userId, ids)
  }

  async create(userId: number, input: SpaceInput, errors = new FieldErrors()): Promise<SpaceRow> {
    this.require(input, ['name'], errors)
    const fields = await this.fields(userId, input, errors, null)
    return this.write(errors, async (raise, now) => {
      const space = await this.store.create(userId, { color: 1, ...fields } as SpaceFields, now)
      await raise({
        type: 'space.created',
        userId,
        at: now,
        data: { space: toSpaceRecord(space) },
      })
      return space
    })
  }

  async update(
    userId: number,
    id: number,
    input: SpaceInput,
    errors = new FieldErrors(),
  ): Promise<SpaceRow> {
    const space = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, space.id)
    return this.write(errors, async (raise, now) => {
      const updated = await this.store.update(space.id, fields, now)
      const record = toSpaceRecord(updated)
      const changed = changedFields(toSpaceRecord(space), record)
      await raise({ type: 'space.updated', userId, at: now, data: { space: record, changed } })
      return updated
    })
  }

  delete(userId: number, id: number): Promise<SpaceRow> {
    return this.remove(userId, id, async (space, raise, now) => {
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
  }

  private async fields(
    userId: number,
    input: SpaceInput,
    errors: FieldErrors,
    selfId: number | null,
  ): Promise<Partial<SpaceFields>> {
    const fields: Partial<SpaceFields> = await this.freeName(userId, input.name, selfId, errors)
    if (input.color !== undefined) fields.color = input.color
    return fields
  }
}
