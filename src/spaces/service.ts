/** Spaces: unique names per user; deleting one deletes its links. */
import type { Page, PageRequest } from '../db/paging.js'
import type { SpaceRow } from '../db/types.js'
import type { Changes } from '../shared/changes.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import type { LinkKeysOf } from '../shared/link-keys.js'
import { takenMessage, writeUnique } from '../shared/unique.js'
import type { SpaceInput } from './schema.js'
import type { SpaceFields, SpaceFilter, SpaceStore } from './store.js'

export class SpaceService {
  constructor(
    private readonly store: SpaceStore,
    private readonly linkKeys: LinkKeysOf,
    private readonly changes: Changes,
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
    return writeUnique(errors, 'name', () =>
      this.store.create(userId, { color: 1, ...fields } as SpaceFields, this.now()),
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
    return writeUnique(errors, 'name', () => this.store.update(space.id, fields, this.now()))
  }

  async delete(userId: number, id: number): Promise<SpaceRow> {
    const space = await this.get(userId, id)
    const gone = await this.linkKeys({ spaceId: space.id })
    await this.store.delete(space.id)
    for (const key of gone) this.changes.publish({ kind: 'link', ...key })
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
