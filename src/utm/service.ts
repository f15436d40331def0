/** UTM templates: names unique per user, values of at most 255 characters, each optional. */
import { NamedRowService } from '../resources/named-row-service.js'
import type { UtmTemplateRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields } from '../events/types.js'
import { FieldErrors } from '../shared/errors.js'
import { toUtmTemplateRecord } from './record.js'
import { UTM_PARAMETERS, type UtmTemplateInput } from './schema.js'
import type { UtmTemplateFields, UtmTemplateFilter, UtmTemplateStore } from './store.js'

export class UtmTemplateService extends NamedRowService<
  UtmTemplateRow,
  UtmTemplateFilter,
  UtmTemplateStore
> {
  constructor(store: UtmTemplateStore, events: DomainEvents, now: () => number = Date.now) {
    super(store, events, now)
  }

  async create(
    userId: number,
    input: UtmTemplateInput,
    errors = new FieldErrors(),
  ): Promise<UtmTemplateRow> {
    this.require(input, ['name'], errors)
    const fields = await this.fields(userId, input, errors, null)
    const empty = Object.fromEntries(UTM_PARAMETERS.map((p) => [p, null]))
    return this.write(errors, async (raise, now) => {
      const row = await this.store.create(userId, { ...empty, ...fields } as UtmTemplateFields, now)
      await raise({
        type: 'utm_template.created',
        userId,
        at: now,
        data: { utm_template: toUtmTemplateRecord(row) },
      })
      return row
    })
  }

  async update(
    userId: number,
    id: number,
    input: UtmTemplateInput,
    errors = new FieldErrors(),
  ): Promise<UtmTemplateRow> {
    const current = await this.get(userId, id)
    const fields = await this.fields(userId, input, errors, current.id)
    return this.write(errors, async (raise, now) => {
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
    })
  }

  delete(userId: number, id: number): Promise<UtmTemplateRow> {
    return this.remove(userId, id, async (template, raise, now) => {
      await this.store.delete(template.id)
      await raise({
        type: 'utm_template.deleted',
        userId,
        at: now,
        data: { utm_template: toUtmTemplateRecord(template) },
      })
    })
  }

  private async fields(
    userId: number,
    input: UtmTemplateInput,
    errors: FieldErrors,
    selfId: number | null,
  ): Promise<Partial<UtmTemplateFields>> {
    const fields: Partial<UtmTemplateFields> = await this.freeName(
      userId,
      input.name,
      selfId,
      errors,
    )
    for (const parameter of UTM_PARAMETERS) {
      const given = input[parameter]
      if (given !== undefined && !errors.has(parameter)) fields[parameter] = given
    }
    return fields
  }
}
