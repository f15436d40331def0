/** UTM templates: names unique per user, values of at most 255 characters, each optional. */
import type { Page, PageRequest } from '../db/paging.js'
import type { UtmTemplateRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields } from '../events/types.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import { FieldErrors, NotFoundError } from '../shared/errors.js'
import { toUtmTemplateRecord } from './record.js'
import { UTM_PARAMETERS, type UtmTemplateInput } from './schema.js'
import type { UtmTemplateFields, UtmTemplateFilter, UtmTemplateStore } from './store.js'

export class UtmTemplateService {
  constructor(
    private readonly store: UtmTemplateStore,
    private readonly events: DomainEvents,
    private readonly now: () => number = Date.now,
  ) {}

  list(
    userId: number,
    filter: UtmTemplateFilter,
    page: PageRequest,
  ): Promise<Page<UtmTemplateRow>> {
    return this.store.list(userId, filter, page)
  }

  async get(userId: number, id: number): Promise<UtmTemplateRow> {
    const template = await this.store.find(userId, id)
    if (!template) throw new NotFoundError()
    return template
  }

  async create(
    userId: number,
    input: UtmTemplateInput,
    errors = new FieldErrors(),
  ): Promise<UtmTemplateRow> {
    if (input.name === undefined && !errors.has('name'))
      errors.add('name', 'The name field is required.')
    const fields = await this.fields(userId, input, errors, null)
    errors.throwIfAny()
    const now = this.now()
    const empty = Object.fromEntries(UTM_PARAMETERS.map((p) => [p, null]))
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const row = await this.store.create(
          userId,
          { ...empty, ...fields } as UtmTemplateFields,
          now,
        )
        await raise({
          type: 'utm_template.created',
          userId,
          at: now,
          data: { utm_template: toUtmTemplateRecord(row) },
        })
        return row
      }),
    )
  }

  async update(
    userId: number,
    id: number,
    input: UtmTemplateInput,
    errors = new FieldErrors(),
  ): Promise<UtmTemplateRow> {
    const current = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, current.id)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const updated = await this.store.update(current.id, fields, now)
        const record = toUtmTemplateRecord(updated)
        const changed = changedFields(toUtmTemplateRecord(current), record)
        await raise({
          type: 'utm_template.updated',
          userId,
          at: now,
          data: { utm_template: record, changed },
        })
        return updated
      }),
    )
  }

  async delete(userId: number, id: number): Promise<UtmTemplateRow> {
    const template = await this.get(userId, id)
    const now = this.now()
    await this.events.commit(async (raise) => {
      await this.store.delete(template.id)
      await raise({
        type: 'utm_template.deleted',
        userId,
        at: now,
        data: { utm_template: toUtmTemplateRecord(template) },
      })
    })
    return template
  }

  private async fields(
    userId: number,
    input: UtmTemplateInput,
    errors: FieldErrors,
    selfId: number | null,
  ): Promise<Partial<UtmTemplateFields>> {
    const fields: Partial<UtmTemplateFields> = {}
    if (input.name !== undefined && !errors.has('name')) {
      const other = await this.store.findByName(userId, input.name)
      if (other && other.id !== selfId) errors.add('name', takenMessage('name'))
      fields.name = input.name
    }
    for (const parameter of UTM_PARAMETERS) {
      const given = input[parameter]
      if (given !== undefined && !errors.has(parameter)) fields[parameter] = given
    }
    return fields
  }
}
