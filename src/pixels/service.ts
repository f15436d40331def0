/**
 * Pixels: unique names per user, type-specific values; deleting one detaches it from its links,
 * each of which raises `link.updated` in the same transaction.
 */
import type { Page, PageRequest } from '../db/paging.js'
import type { PixelRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import type { LinkKeysOf } from '../shared/link-keys.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import { toPixelRecord } from './record.js'
import type { PixelInput } from './schema.js'
import type { PixelFields, PixelFilter, PixelStore } from './store.js'
import { canonicalPixelType, pixelValueProblem, type PixelType } from './types.js'

export class PixelService {
  constructor(
    private readonly store: PixelStore,
    private readonly linkKeys: LinkKeysOf,
    /** The links carrying a pixel, as their records are now. */
    private readonly linksOf: LinkSnapshotsOf,
    private readonly events: DomainEvents,
    private readonly now: () => number = Date.now,
  ) {}

  list(userId: number, filter: PixelFilter, page: PageRequest): Promise<Page<PixelRow>> {
    return this.store.list(userId, filter, page)
  }

  async get(userId: number, id: number): Promise<PixelRow> {
    const pixel = await this.store.find(userId, id)
    if (!pixel) throw new NotFoundError()
    return pixel
  }

  findMany(userId: number, ids: number[]): Promise<PixelRow[]> {
    return this.store.findMany(userId, ids)
  }

  async create(userId: number, input: PixelInput, errors = new FieldErrors()): Promise<PixelRow> {
    for (const field of ['name', 'type', 'value'] as const) {
      if (input[field] === undefined && !errors.has(field))
        errors.add(field, `The ${field} field is required.`)
    }
    const fields = await this.fields(userId, input, errors, null)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const pixel = await this.store.create(userId, fields as PixelFields, now)
        await raise({
          type: 'pixel.created',
          userId,
          at: now,
          data: { pixel: toPixelRecord(pixel) },
        })
        return pixel
      }),
    )
  }

  async update(
    userId: number,
    id: number,
    input: PixelInput,
    errors = new FieldErrors(),
  ): Promise<PixelRow> {
    const pixel = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, pixel)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const updated = await this.store.update(pixel.id, fields, now)
        const record = toPixelRecord(updated)
        await raise({
          type: 'pixel.updated',
          userId,
          at: now,
          data: { pixel: record, changed: changedFields(toPixelRecord(pixel), record) },
          // The pixel pages of its links show the new value.
          links: await this.linkKeys({ pixelId: pixel.id }),
        })
        return updated
      }),
    )
  }

  async delete(userId: number, id: number): Promise<PixelRow> {
    const pixel = await this.get(userId, id)
    const now = this.now()
    await this.events.commit(async (raise) => {
      // Its links lose it: each is a changed link (its record's `pixels`, its pixel page).
      const carriers = await this.linksOf({ pixelId: pixel.id })
      await this.store.delete(pixel.id)
      await raise(
        ...carriers.map((s) => ({
          type: 'link.updated' as const,
          userId: s.userId,
          at: now,
          data: {
            link: { ...s.record, pixels: s.record.pixels.filter((p) => p.id !== pixel.id) },
            changed: ['pixels'],
          },
          links: [s.key],
        })),
        {
          type: 'pixel.deleted',
          userId,
          at: now,
          data: { pixel: toPixelRecord(pixel) },
          links: carriers.map((s) => s.key),
        },
      )
    })
    return pixel
  }

  private async fields(
    userId: number,
    input: PixelInput,
    errors: FieldErrors,
    current: PixelRow | null,
  ): Promise<Partial<PixelFields>> {
    const fields: Partial<PixelFields> = {}
    if (input.name !== undefined && !errors.has('name')) {
      const other = await this.store.findByName(userId, input.name)
      if (other && other.id !== current?.id) errors.add('name', takenMessage('name'))
      fields.name = input.name
    }
    if (input.type !== undefined) fields.type = canonicalPixelType(input.type)
    if (input.value !== undefined) fields.value = input.value
    // The value's format depends on the type, either of which may be the stored one.
    const type = fields.type ?? (current?.type as PixelType | undefined)
    const value = fields.value ?? current?.value
    if (type && value !== undefined && !errors.has('type') && !errors.has('value')) {
      const problem = pixelValueProblem(type, value)
      if (problem) errors.add('value', problem)
    }
    return fields
  }
}
