/**
 * Links: create, change, list and remove them under the rules of the contract. Field rules
 * that need no storage live in field-rules.ts; this module adds the ones that do (domains,
 * spaces, pixels, alias uniqueness) and writes the result.
 */
import type { Page, PageRequest } from '../db/paging.js'
import type { DomainRow, LinkRow, LinkRowUpdate, NewLinkRow } from '../db/types.js'
import { toDomainRecord } from '../domains/record.js'
import type { DomainStore } from '../domains/store.js'
import type { PixelStore } from '../pixels/store.js'
import type { DomainEvents } from '../events/bus.js'
import { changedFields } from '../events/types.js'
import { FieldErrors, NotFoundError, ValidationError } from '../shared/errors.js'
import { hashPassword } from '../shared/secrets.js'
import { isUniqueViolation } from '../db/errors.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import type { SpaceStore } from '../spaces/store.js'
import {
  changedTagName,
  compareTagNames,
  MAX_TAGS_PER_LINK,
  retagged,
  tagNameList,
  tagNameProblem,
  type TagChange,
} from '../tags/names.js'
import { toTagRecord } from '../tags/record.js'
import type { TagStore } from '../tags/store.js'
import type { Raise } from '../events/bus.js'
import {
  expiryInstant,
  isReservedAlias,
  keyedList,
  NEW_LINK_DEFAULTS,
  randomAlias,
} from './field-rules.js'
import { duplicateRow } from './duplicate.js'
import { rotationEntries } from './rotation-list.js'
import { linkRecord } from './record.js'
import { ruleList } from './redirect-rules.js'
import type { LinkInput, LinkRecord } from './schema.js'
import type { LinkFilter, LinkStore } from './store.js'
import { SOCIAL_FIELDS } from './social-preview.js'
import { TARGET_LISTS } from './targeting-keys.js'
import type { TitleQueue } from './title-queue.js'

export interface LinkServiceDeps {
  links: LinkStore
  domains: DomainStore
  spaces: SpaceStore
  pixels: PixelStore
  tags: TagStore
  events: DomainEvents
  /** The wire records of links (the events carry them). */
  present: (userId: number, rows: LinkRow[]) => Promise<LinkRecord[]>
  titles: TitleQueue | null
  timeZoneOf: (userId: number) => Promise<string>
  now?: () => number
  /** A random alias for the n-th try (0 first); longer every third try. */
  randomAlias?: (attempt: number) => string
}

/** Tries of a random alias before a create gives up (each taken one is a one-in-billions draw). */
const ALIAS_TRIES = 30

function keyOf(link: LinkRow) {
  return { id: link.id, domainId: link.domain_id, alias: link.alias }
}

/** The link.updated event of a link (`row`) whose record went from `before` to `after`. */
function linkUpdated(
  userId: number,
  at: number,
  before: LinkRecord,
  after: LinkRecord,
  row: LinkRow,
): Parameters<Raise>[0] {
  return {
    type: 'link.updated',
    userId,
    at,
    data: { link: after, changed: changedFields(before, after) },
    links: [keyOf(row)],
  }
}

export class LinkService {
  private readonly now: () => number
  private readonly randomAlias: (attempt: number) => string
  /**
   * The records of the rows a create or update returned, as presented for their events inside
   * the committed transaction: the answer to the same request shows them without reading the
   * domain, space and pixels a second time.
   */
  private readonly written = new WeakMap<LinkRow, LinkRecord>()

  constructor(private readonly deps: LinkServiceDeps) {
    this.now = deps.now ?? Date.now
    this.randomAlias = deps.randomAlias ?? randomAlias
  }

  list(
    userId: number,
    filter: LinkFilter,
    page: PageRequest,
    countCap?: number,
  ): Promise<Page<LinkRow>> {
    return this.deps.links.list(userId, filter, page, this.now(), countCap)
  }

  /** The first links of a filter in its order, uncounted (the Overview's short lists). */
  first(
    userId: number,
    filter: LinkFilter,
    limit: number,
    sort: 'asc' | 'desc',
  ): Promise<LinkRow[]> {
    return this.deps.links.first(userId, filter, this.now(), limit, sort)
  }

  /** The account's time zone (expiry dates and times are in it). */
  timeZoneOf(userId: number): Promise<string> {
    return this.deps.timeZoneOf(userId)
  }

  /** Every link of the filter, in id order, a batch at a time (exports stream them). */
  async *batches(userId: number, filter: LinkFilter, size = 500): AsyncGenerator<LinkRow[]> {
    for (let after = 0; ;) {
      const rows = await this.deps.links.listAfter(userId, filter, this.now(), after, size)
      if (rows.length > 0) yield rows
      if (rows.length < size) return
      after = rows[rows.length - 1]!.id
    }
  }

  async get(userId: number, id: number): Promise<LinkRow> {
    const link = await this.deps.links.find(userId, id)
    if (!link) throw new NotFoundError()
    return link
  }

  /** The wire records of rows (a row this service has just written is not read again). */
  present(userId: number, rows: LinkRow[]): Promise<LinkRecord[]> {
    const written = rows.length === 1 ? this.written.get(rows[0]!) : undefined
    return written ? Promise.resolve([written]) : this.deps.present(userId, rows)
  }

  pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>> {
    return this.deps.links.pixelIdsOf(linkIds)
  }

  /**
   * `defaultDomainId`: the account's default domain (the one `PUBLIC_URL` names), used when the
   * input names none, as phpShort does.
   */
  async create(
    userId: number,
    input: LinkInput,
    errors = new FieldErrors(),
    defaultDomainId: number | null = null,
  ): Promise<LinkRow> {
    if (input.url === undefined && !errors.has('url'))
      errors.add('url', 'The url field is required.')
    const domain = await this.domainForCreate(userId, input, errors, defaultDomainId)
    const changes = await this.changes(userId, input, errors, null)
    const chosen = input.alias !== undefined && input.alias !== null
    const alias = chosen ? await this.chosenAlias(input.alias!, domain, errors) : null
    const pixelIds = await this.pixelIds(userId, input, errors)
    const tagNames = this.tagNames(input, errors)
    errors.throwIfAny()
    const now = this.now()
    const row: NewLinkRow = {
      user_id: userId,
      domain_id: domain!.id,
      alias: alias ?? this.freeOfReserved(0),
      url: input.url!,
      ...NEW_LINK_DEFAULTS,
      ...changes,
      created_at: now,
      updated_at: now,
    }
    return this.insert(userId, row, pixelIds ?? [], tagNames, { chosen, domain: domain! }, errors)
  }

  /**
   * A copy of one of the user's links under a new alias (`alias`, checked as on create, or a
   * random one): every setting DUPLICATED_COLUMNS lists, its pixels and tags, none of its clicks.
   */
  async duplicate(
    userId: number,
    id: number,
    input: { alias?: string | null },
    errors = new FieldErrors(),
  ): Promise<LinkRow> {
    const link = await this.get(userId, id)
    const chosen = input.alias !== undefined && input.alias !== null && !errors.has('alias')
    if (chosen) await this.checkAlias(input.alias!, link.domain_id, errors)
    errors.throwIfAny()
    const pixelIds = (await this.deps.links.pixelIdsOf([link.id])).get(link.id) ?? []
    const tagNames = (await this.deps.links.tagNamesOf([link.id])).get(link.id) ?? []
    const row = duplicateRow(link, chosen ? input.alias! : this.freeOfReserved(0), this.now())
    return this.insert(userId, row, pixelIds, tagNames, { chosen, domain: null }, errors)
  }

  /**
   * Writes a new link and raises link.created in the same transaction; a random alias is drawn
   * again while taken. `domain`: the link's domain when the caller has read it already.
   */
  private async insert(
    userId: number,
    row: NewLinkRow,
    pixelIds: number[],
    tagNames: string[] | undefined,
    how: { chosen: boolean; domain: DomainRow | null },
    errors: FieldErrors,
  ): Promise<LinkRow> {
    const now = row.created_at
    // Marked in the same write: a stop before the fetch ends leaves it for the next start.
    if (this.deps.titles && row.title_locked === 0) row.title_fetch_at = now
    const { domain } = how
    const write = () =>
      this.deps.events.commit(async (raise) => {
        const tagged = await this.tagged(userId, tagNames, now, raise)
        const link = await this.deps.links.create(row, pixelIds, tagged?.ids ?? [])
        // No space and no pixels: the record's one relation is the domain checked above, so it
        // is not read again inside the write (two queries fewer, two round trips on PostgreSQL).
        const record =
          domain !== null && link.space_id === null && pixelIds.length === 0
            ? linkRecord(link, {
                domain: toDomainRecord(domain),
                space: null,
                pixels: [],
                tags: tagged?.names ?? [],
              })
            : await this.record(userId, link)
        // A visit before the link existed may have cached its absence.
        await raise({
          type: 'link.created',
          userId,
          at: now,
          data: { link: record },
          links: [keyOf(link)],
        })
        this.written.set(link, record)
        return link
      })
    const link = how.chosen
      ? await writeUnique(errors, 'alias', write)
      : await this.withRandomAlias(row, errors, write)
    if (link.title_locked === 0) this.deps.titles?.enqueue(link.id, link.url)
    return link
  }

  async update(
    userId: number,
    id: number,
    input: LinkInput,
    errors = new FieldErrors(),
  ): Promise<LinkRow> {
    const current = await this.get(userId, id)
    for (const field of ['domain_id', 'domain'] as const) {
      const given = input[field]
      if (given !== undefined && given !== current.domain_id && !errors.has(field)) {
        errors.add(field, `The ${field.replace('_', ' ')} cannot be changed.`)
      }
    }
    const changes = await this.changes(userId, input, errors, current)
    if (
      input.alias !== undefined &&
      input.alias !== null &&
      input.alias !== current.alias &&
      !errors.has('alias')
    ) {
      await this.checkAlias(input.alias, current.domain_id, errors)
      changes.alias = input.alias
    }
    const pixelIds = await this.pixelIds(userId, input, errors)
    const tagNames = this.tagNames(input, errors)
    errors.throwIfAny()
    const now = this.now()
    // Read outside the transaction, like `current` itself: the write lock is held for less.
    const before = await this.record(userId, current)
    const updated = await writeUnique(errors, 'alias', () =>
      this.deps.events.commit(async (raise) => {
        const tagged = await this.tagged(userId, tagNames, now, raise)
        const updated = await this.deps.links.update(
          current.id,
          { ...changes, updated_at: now },
          pixelIds,
          tagged?.ids,
        )
        // The same domain, space and pixels: the record is the new row with the old relations.
        const after =
          pixelIds === undefined && changes.space_id === undefined
            ? linkRecord(updated, { ...before, tags: tagged?.names ?? before.tags })
            : await this.record(userId, updated)
        const changed = changedFields(before, after)
        // Password hashes are not in the record: a new password shows as a change all the same.
        for (const field of ['password', 'privacy_password'] as const) {
          if (current[field] !== updated[field] && !changed.includes(field)) changed.push(field)
        }
        const keys = [keyOf(current)]
        if (updated.alias !== current.alias) keys.push(keyOf(updated))
        await raise({
          type: 'link.updated',
          userId,
          at: now,
          data: { link: after, changed },
          links: keys,
        })
        this.written.set(updated, after)
        return updated
      }),
    )
    if (updated.title_locked === 0 && (updated.url !== current.url || updated.title === null)) {
      await this.deps.titles?.markAndEnqueue(updated.id, updated.url)
    }
    return updated
  }

  async delete(userId: number, id: number): Promise<LinkRow> {
    const link = await this.get(userId, id)
    await this.deps.events.commit(async (raise) => {
      const record = await this.record(userId, link)
      await this.deps.links.delete(link.id)
      await raise({
        type: 'link.deleted',
        userId,
        at: this.now(),
        data: { link: record, cause: 'link' },
        links: [keyOf(link)],
      })
    })
    return link
  }

  /**
   * Changes several of the user's links at once (the dashboard's bulk actions: disable, enable,
   * move to a space) in one transaction, raising link.updated for each link as a single update
   * would. Ids that are not the user's links are skipped; the changed links are returned.
   */
  async updateMany(
    userId: number,
    ids: number[],
    input: Pick<LinkInput, 'disabled' | 'space_id'>,
  ): Promise<LinkRow[]> {
    const errors = new FieldErrors()
    const changes = await this.changes(userId, input, errors, null)
    errors.throwIfAny()
    const now = this.now()
    return this.deps.events.commit(async (raise) => {
      const out: LinkRow[] = []
      for (const current of await this.findOwn(userId, ids)) {
        const before = await this.record(userId, current)
        const updated = await this.deps.links.update(
          current.id,
          { ...changes, updated_at: now },
          undefined,
        )
        const after = await this.record(userId, updated)
        await raise(linkUpdated(userId, now, before, after, current))
        out.push(updated)
      }
      return out
    })
  }

  /**
   * Adds one tag to several of the user's links, or takes one off them (the dashboard's bulk
   * actions), in one transaction, raising link.updated for each link that changes. Links that
   * have the tag already (or have not got it) are left alone, ids of others are skipped. A new
   * name makes a tag; an existing one keeps its spelling. If a link would get more than
   * MAX_TAGS_PER_LINK tags, nothing changes: the error names those links.
   */
  async tagMany(userId: number, ids: number[], change: TagChange): Promise<LinkRow[]> {
    const name = changedTagName(change).trim()
    const problem = tagNameProblem('tag', name)
    if (problem !== null) throw new ValidationError({ tag: [problem] })
    if ('remove' in change && !(await this.deps.tags.findByName(userId, name))) {
      throw new ValidationError({ tag: [`You have no tag named “${name}”.`] })
    }
    const now = this.now()
    return this.deps.events.commit(async (raise) => {
      const rows = await this.findOwn(userId, ids)
      const befores = await this.deps.present(userId, rows)
      const plans = rows.map((row, i) => {
        const before = befores[i]!
        return { row, before, names: retagged(before.tags, change) }
      })
      const full = plans.filter((p) => (p.names?.length ?? 0) > MAX_TAGS_PER_LINK)
      if (full.length > 0) {
        const urls = full.map((p) => p.before.short_url).join(', ')
        throw new ValidationError({
          tag: [
            `A link has at most ${MAX_TAGS_PER_LINK} tags, and these have ${MAX_TAGS_PER_LINK} already: ${urls}.`,
          ],
        })
      }
      const out: LinkRow[] = []
      for (const { row, before, names } of plans) {
        if (names === null) continue
        const tagged = (await this.tagged(userId, names, now, raise))!
        const updated = await this.deps.links.update(
          row.id,
          { updated_at: now },
          undefined,
          tagged.ids,
        )
        const after = linkRecord(updated, { ...before, tags: tagged.names })
        await raise(linkUpdated(userId, now, before, after, row))
        out.push(updated)
      }
      return out
    })
  }

  /** Deletes several of the user's links in one transaction (ids of others are skipped). */
  async deleteMany(userId: number, ids: number[]): Promise<LinkRow[]> {
    return this.deps.events.commit(async (raise) => {
      const links = await this.findOwn(userId, ids)
      for (const link of links) {
        const record = await this.record(userId, link)
        await this.deps.links.delete(link.id)
        await raise({
          type: 'link.deleted',
          userId,
          at: this.now(),
          data: { link: record, cause: 'link' },
          links: [keyOf(link)],
        })
      }
      return links
    })
  }

  /** The user's links among `ids`, in id order; ids of others' or missing links are skipped. */
  async findOwn(userId: number, ids: number[]): Promise<LinkRow[]> {
    const out: LinkRow[] = []
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      const link = await this.deps.links.find(userId, id)
      if (link) out.push(link)
    }
    return out
  }

  /**
   * Keeps a title fetched in the background, unless the client has set one or the URL changed
   * meanwhile; a new title is a change like any other (link.updated, `changed: ["title"]`).
   */
  async keepFetchedTitle(id: number, url: string, title: string): Promise<void> {
    await this.deps.events.commit(async (raise) => {
      // The fetch of `url` has ended: its mark goes with the title, in the same commit.
      await this.deps.links.finishTitleFetch(id, url)
      const current = await this.deps.links.findById(id)
      if (!current || current.url !== url || current.title_locked !== 0) return
      if (current.title === title) return
      const before = await this.record(current.user_id, current)
      await this.deps.links.setFetchedTitle(id, url, title)
      const after = await this.record(current.user_id, { ...current, title })
      await raise(linkUpdated(current.user_id, this.now(), before, after, current))
    })
  }

  private async record(userId: number, row: LinkRow): Promise<LinkRecord> {
    return (await this.deps.present(userId, [row]))[0]!
  }

  /** The column changes an input asks for, after checking each field. */
  private async changes(
    userId: number,
    input: LinkInput,
    errors: FieldErrors,
    current: LinkRow | null,
  ): Promise<LinkRowUpdate> {
    const out: LinkRowUpdate = {}
    if (input.url !== undefined) {
      out.url = input.url
      if (current && input.url !== current.url && current.title_locked === 0) out.title = null
    }
    if (input.title !== undefined) {
      out.title = input.title
      out.title_locked = input.title === null ? 0 : 1
    }
    if (input.disabled !== undefined) out.disabled = input.disabled
    if (input.privacy !== undefined) out.privacy = input.privacy
    if (input.target_type !== undefined) out.target_type = input.target_type
    if (input.expiration_url !== undefined) out.expiration_url = input.expiration_url
    for (const field of SOCIAL_FIELDS) if (input[field] !== undefined) out[field] = input[field]
    if (input.expiration_clicks !== undefined) {
      out.expiration_clicks = input.expiration_clicks === 0 ? null : input.expiration_clicks
    }
    if (input.password !== undefined) {
      out.password = input.password === null ? null : await hashPassword(input.password)
    }
    if (input.privacy_password !== undefined) {
      out.privacy_password =
        input.privacy_password === null ? null : await hashPassword(input.privacy_password)
    }
    const privacy = out.privacy ?? current?.privacy ?? 0
    const privacyPassword =
      out.privacy_password !== undefined
        ? out.privacy_password
        : (current?.privacy_password ?? null)
    if (
      privacy === 2 &&
      privacyPassword === null &&
      !errors.has('privacy') &&
      !errors.has('privacy_password')
    ) {
      errors.add('privacy_password', 'The privacy password field is required when privacy is 2.')
    }
    if (input.space_id !== undefined && !errors.has('space_id')) {
      if (input.space_id !== null && !(await this.deps.spaces.find(userId, input.space_id))) {
        errors.add('space_id', 'The selected space id is invalid.')
      }
      out.space_id = input.space_id
    }
    if (input.expiration_date !== undefined || input.expiration_time !== undefined) {
      const timeZone = await this.deps.timeZoneOf(userId)
      const endsAt = expiryInstant(input.expiration_date, input.expiration_time, timeZone, errors)
      if (endsAt !== undefined) out.ends_at = endsAt
    }
    for (const list of TARGET_LISTS) {
      const raw = input[list]
      if (raw === undefined || errors.hasOwn(list)) continue
      if (list === 'rotation')
        out.rotation_target = raw === null ? null : rotationEntries(raw, errors)
      else out[`${list}_target`] = raw === null ? null : keyedList(list, raw, errors)
    }
    if (input.rules !== undefined && !errors.hasOwn('rules')) {
      out.rules = input.rules === null ? null : ruleList(input.rules, errors)
    }
    return out
  }

  private async domainForCreate(
    userId: number,
    input: LinkInput,
    errors: FieldErrors,
    defaultDomainId: number | null,
  ): Promise<DomainRow | null> {
    const field = input.domain_id !== undefined || errors.has('domain_id') ? 'domain_id' : 'domain'
    if (errors.has(field)) return null
    const id = input.domain_id ?? input.domain ?? defaultDomainId ?? undefined
    if (id === undefined) {
      errors.add('domain_id', 'The domain id field is required.')
      return null
    }
    const domain = await this.deps.domains.findVisible(userId, id)
    if (!domain) errors.add(field, `The selected ${field.replace(/_/g, ' ')} is invalid.`)
    return domain ?? null
  }

  private async chosenAlias(
    alias: string,
    domain: DomainRow | null,
    errors: FieldErrors,
  ): Promise<string | null> {
    if (errors.has('alias')) return null
    await this.checkAlias(alias, domain?.id ?? null, errors)
    return alias
  }

  /**
   * A random alias is not looked up before the write: the unique index refuses one that is
   * taken (a draw in tens of billions for six characters), and the write is tried again with
   * another. One read fewer in every create, and no "alias taken" answer for an alias the
   * client never chose when another create takes the same one meanwhile.
   */
  private async withRandomAlias(
    row: NewLinkRow,
    errors: FieldErrors,
    write: () => Promise<LinkRow>,
  ): Promise<LinkRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        if (attempt >= ALIAS_TRIES) {
          errors.add('alias', 'No free random alias was found: send an alias.')
          errors.throwIfAny()
        }
        row.alias = this.freeOfReserved(attempt)
      }
    }
  }

  private freeOfReserved(attempt: number): string {
    for (;;) {
      const alias = this.randomAlias(attempt)
      if (!isReservedAlias(alias)) return alias
    }
  }

  /** Reserved words always; uniqueness once the domain is known. */
  private async checkAlias(
    alias: string,
    domainId: number | null,
    errors: FieldErrors,
  ): Promise<void> {
    if (isReservedAlias(alias)) errors.add('alias', 'The alias is reserved.')
    else if (domainId !== null && (await this.deps.links.aliasTaken(domainId, alias))) {
      errors.add('alias', takenMessage('alias'))
    }
  }

  /** The tag names of an input (checked), undefined when it leaves them alone. */
  private tagNames(input: LinkInput, errors: FieldErrors): string[] | undefined {
    if (input.tags === undefined || errors.hasOwn('tags')) return undefined
    return tagNameList('tags', input.tags ?? [], errors)
  }

  /**
   * The user's tags of these names, made where missing (each made one raises tag.created): their
   * ids, and their stored names in the record's order. Runs inside the link's write.
   */
  private async tagged(
    userId: number,
    names: string[] | undefined,
    now: number,
    raise: Raise,
  ): Promise<{ ids: number[]; names: string[] } | undefined> {
    if (names === undefined) return undefined
    const { tags, created } = await this.deps.tags.ensure(userId, names, now)
    if (created.length > 0) {
      await raise(
        ...created.map((tag) => ({
          type: 'tag.created' as const,
          userId,
          at: now,
          data: { tag: toTagRecord({ ...tag, links: 1 }) },
        })),
      )
    }
    return { ids: tags.map((t) => t.id), names: tags.map((t) => t.name).sort(compareTagNames) }
  }

  private async pixelIds(
    userId: number,
    input: LinkInput,
    errors: FieldErrors,
  ): Promise<number[] | undefined> {
    if (input.pixel_ids === undefined || errors.hasOwn('pixel_ids')) return undefined
    // Items that failed validation are holes, so the others keep their positions.
    const given = (input.pixel_ids ?? []) as (number | undefined)[]
    const ids = [...new Set(given.filter((id): id is number => id !== undefined))]
    const found = new Set((await this.deps.pixels.findMany(userId, ids)).map((p) => p.id))
    given.forEach((id, i) => {
      if (id !== undefined && !found.has(id)) {
        errors.add(`pixel_ids.${i}`, `The selected pixel_ids.${i} is invalid.`)
      }
    })
    return ids
  }
}
