/**
 * Tags: names unique per user ignoring case; renaming one to another's name merges that one
 * into it; deleting one takes it off its links, which stay. Each link whose record changes
 * with a tag (its `tags`) raises link.updated.
 */
import { NamedRowService } from '../resources/named-row-service.js'
import type { TagRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields, type LinkSnapshot, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors } from '../shared/errors.js'
import { compareTagNames, tagNameProblem } from './names.js'
import { toTagRecord } from './record.js'
import type { TagInput } from './schema.js'
import type { TagFields, TagFilter, TagStore } from './store.js'

export class TagService extends NamedRowService<TagRow, TagFilter, TagStore> {
  constructor(
    store: TagStore,
    private readonly linksOf: LinkSnapshotsOf,
    events: DomainEvents,
    now: () => number = Date.now,
  ) {
    super(store, events, now)
  }

  /** The user's tag of that name (ignoring case), or undefined. */
  findByName(userId: number, name: string): Promise<TagRow | undefined> {
    return this.store.findByName(userId, name)
  }

  /**
   * Where the tag's statistics start: when the oldest link carrying it was made (its clicks may
   * be older than the tag), or the tag's own creation when no link carries it.
   */
  async since(tag: TagRow): Promise<number> {
    return (await this.store.oldestLinkAt(tag.id)) ?? tag.created_at
  }

  async create(userId: number, input: TagInput, errors = new FieldErrors()): Promise<TagRow> {
    this.require(input, ['name'], errors)
    const fields = this.fields(input, errors)
    if (fields.name !== undefined) await this.checkNameFree(userId, fields.name, null, errors)
    return this.write(errors, async (raise, now) => {
      const tag = await this.store.create(userId, { color: 1, ...fields } as TagFields, now)
      await raise({ type: 'tag.created', userId, at: now, data: { tag: toTagRecord(tag) } })
      return tag
    })
  }

  async update(
    userId: number,
    id: number,
    input: TagInput,
    errors = new FieldErrors(),
  ): Promise<TagRow> {
    const tag = await this.get(userId, id)
    const fields = this.fields(input, errors)
    errors.throwIfAny()
    const now = this.now()
    return this.events.commit(async (raise) => {
      const other =
        fields.name === undefined ? undefined : await this.store.findByName(userId, fields.name)
      const merged = other !== undefined && other.id !== tag.id ? other : null
      const carriers = await this.carriersOf(tag.id, merged?.id)
      if (merged) await this.store.merge(merged.id, tag.id)
      const updated = await this.store.update(tag.id, fields, now)
      const record = toTagRecord(updated)
      const changed = changedFields(toTagRecord(tag), record)
      await raise(
        ...this.linkUpdates(userId, carriers, now, (names) => [
          ...names.filter((n) => ![tag.name, merged?.name].includes(n)),
          updated.name,
        ]),
        ...(merged
          ? [{ type: 'tag.deleted' as const, userId, at: now, data: { tag: toTagRecord(merged) } }]
          : []),
        { type: 'tag.updated', userId, at: now, data: { tag: record, changed } },
      )
      return updated
    })
  }

  delete(userId: number, id: number): Promise<TagRow> {
    return this.remove(userId, id, async (tag, raise, now) => {
      const carriers = await this.carriersOf(tag.id)
      await this.store.delete(tag.id)
      await raise(
        ...this.linkUpdates(userId, carriers, now, (names) => names.filter((n) => n !== tag.name)),
        { type: 'tag.deleted', userId, at: now, data: { tag: toTagRecord(tag) } },
      )
    })
  }

  /** The links carrying either tag, once each, in id order. */
  private async carriersOf(id: number, otherId?: number): Promise<LinkSnapshot[]> {
    const first = await this.linksOf({ tagId: id })
    if (otherId === undefined) return first
    const seen = new Set(first.map((s) => s.record.id))
    const more = (await this.linksOf({ tagId: otherId })).filter((s) => !seen.has(s.record.id))
    return [...first, ...more].sort((a, b) => a.record.id - b.record.id)
  }

  /** link.updated for each carrier whose tags become `next(tags)`, when they change. */
  private linkUpdates(
    userId: number,
    carriers: LinkSnapshot[],
    at: number,
    next: (names: string[]) => string[],
  ) {
    return carriers.flatMap((s) => {
      const tags = next(s.record.tags).sort(compareTagNames)
      if (JSON.stringify(tags) === JSON.stringify(s.record.tags)) return []
      return [
        {
          type: 'link.updated' as const,
          userId,
          at,
          data: { link: { ...s.record, tags }, changed: ['tags'] },
          links: [s.key],
        },
      ]
    })
  }

  private fields(input: TagInput, errors: FieldErrors): Partial<TagFields> {
    const fields: Partial<TagFields> = {}
    if (input.name !== undefined && !errors.has('name')) {
      const name = input.name.trim()
      const problem = tagNameProblem('name', name)
      if (problem !== null) errors.add('name', problem)
      else fields.name = name
    }
    if (input.color !== undefined) fields.color = input.color
    return fields
  }
}
