/**
 * Pixels: unique names per user, type-specific values; deleting one detaches it from its links,
 * each of which raises `link.updated` in the same transaction.
 */
import { NamedRowService } from '../resources/named-row-service.js'
import type { PixelRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors } from '../shared/errors.js'
import type { LinkKeysOf } from '../shared/link-keys.js'
import { toPixelRecord } from './record.js'
import type { PixelInput } from './schema.js'
import type { PixelFields, PixelFilter, PixelStore } from './store.js'
import { canonicalPixelType, pixelValueProblem, type PixelType } from './types.js'

export class PixelService extends NamedRowService<PixelRow, PixelFilter, PixelStore> {
  constructor(
    store: PixelStore,
    private readonly linkKeys: LinkKeysOf,
    /** The links carrying a pixel, as their records are now. */
    private readonly linksOf: LinkSnapshotsOf,
    events: DomainEvents,
    now: () => number = Date.now,
  ) {
    super(store, events, now)
  }

  findMany(userId: number, ids: number[]): Promise<PixelRow[]> {
    return this.store.findMany(userId, ids)
  }

  async create(userId: number, input: PixelInput, errors = new FieldErrors()): Promise<PixelRow> {
    this.require(input, ['name', 'type', 'value'], errors)
    const fields = await this.fields(userId, input, errors, null)
    return this.write(errors, async (raise, now) => {
      const pixel = await this.store.create(userId, fields as PixelFields, now)
      await raise({
        type: 'pixel.created',
        userId,
        at: now,
        data: { pixel: toPixelRecord(pixel) },
      })
      return pixel
    })
  }

  async update(
    userId: number,
    id: number,
    input: PixelInput,
    errors = new FieldErrors(),
  ): Promise<PixelRow> {
    const pixel = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, pixel)
    return this.write(errors, async (raise, now) => {
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
    })
  }

  delete(userId: number, id: number): Promise<PixelRow> {
    return this.remove(userId, id, async (pixel, raise, now) => {
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
  }

  private async fields(
    userId: number,
    input: PixelInput,
    errors: FieldErrors,
    current: PixelRow | null,
  ): Promise<Partial<PixelFields>> {
    const fields: Partial<PixelFields> = await this.freeName(
      userId,
      input.name,
      current?.id ?? null,
      errors,
    )
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
