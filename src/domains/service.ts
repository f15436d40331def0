/** Domains: rules for creating, changing and removing them, and the default short domain. */
import { isUniqueViolation } from '../db/errors.js'
import type { Page, PageRequest } from '../db/paging.js'
import type { DomainRow } from '../db/types.js'
import type { DomainEvents } from '../events/bus.js'
import { cascadeDeletes, changedFields, type LinkSnapshotsOf } from '../events/types.js'
import { FieldErrors, ForbiddenError, NotFoundError } from '../shared/errors.js'
import { ownDomainOf, parseDomainName } from '../shared/domain-name.js'
import { FORMAT_MESSAGES } from '../shared/formats.js'
import { takenMessage, writeUnique } from '../db/unique.js'
import { toDomainRecord } from './record.js'
import type { DomainCreateInput, DomainUpdateInput } from './schema.js'
import type { DomainFields, DomainFilter, DomainStore } from './store.js'

const TAKEN = takenMessage('name')
const OWN = "The name field must not be one of the service's own domains."

export class DomainService {
  constructor(
    private readonly store: DomainStore,
    private readonly events: DomainEvents,
    private readonly linksOf: LinkSnapshotsOf,
    private readonly now: () => number = Date.now,
    /** The default domain's name (the host of `PUBLIC_URL`), which no one else may add. */
    private readonly ownName: string | null = null,
  ) {}

  list(userId: number, filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>> {
    return this.store.list(userId, filter, page)
  }

  async get(userId: number, id: number): Promise<DomainRow> {
    const domain = await this.store.findVisible(userId, id)
    if (!domain) throw new NotFoundError()
    return domain
  }

  /** `userId` null makes a global domain (CLI only). */
  async create(
    userId: number | null,
    input: DomainCreateInput,
    errors = new FieldErrors(),
  ): Promise<DomainRow> {
    if (input.name === undefined && !errors.has('name'))
      errors.add('name', 'The name field is required.')
    const fields = await this.fields(input, errors, userId, null)
    errors.throwIfAny()
    const complete = { index_page: null, not_found_page: null, ...fields } as DomainFields
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const created = await this.store.create(userId, complete, now)
        // A visit before the domain existed may have cached its absence.
        await raise({
          type: 'domain.created',
          userId,
          at: now,
          data: { domain: toDomainRecord(created) },
          domain: { id: created.id, name: created.name },
        })
        return created
      }),
    )
  }

  async update(
    userId: number,
    id: number,
    input: DomainUpdateInput,
    errors = new FieldErrors(),
  ): Promise<DomainRow> {
    return this.change(await this.owned(userId, id), input, errors)
  }

  async delete(userId: number, id: number): Promise<DomainRow> {
    return this.remove(await this.owned(userId, id))
  }

  /** The global domains (no owner), for the administrators' screen. */
  listGlobal(filter: DomainFilter, page: PageRequest): Promise<Page<DomainRow>> {
    return this.store.listGlobal(filter, page)
  }

  async getGlobal(id: number): Promise<DomainRow> {
    const domain = await this.store.findById(id)
    if (!domain || domain.user_id !== null) throw new NotFoundError()
    return domain
  }

  async updateGlobal(
    id: number,
    input: DomainUpdateInput,
    errors = new FieldErrors(),
  ): Promise<DomainRow> {
    return this.change(await this.getGlobal(id), input, errors)
  }

  async deleteGlobal(id: number): Promise<DomainRow> {
    return this.remove(await this.getGlobal(id))
  }

  private async change(
    domain: DomainRow,
    input: DomainUpdateInput,
    errors: FieldErrors,
  ): Promise<DomainRow> {
    const userId = domain.user_id
    const fields = await this.fields(input, errors, userId, domain.id)
    errors.throwIfAny()
    const now = this.now()
    return writeUnique(errors, 'name', () =>
      this.events.commit(async (raise) => {
        const updated = await this.store.update(domain.id, fields, now)
        const record = toDomainRecord(updated)
        await raise({
          type: 'domain.updated',
          userId,
          at: now,
          data: { domain: record, changed: changedFields(toDomainRecord(domain), record) },
          domain: { id: domain.id, name: domain.name },
        })
        return updated
      }),
    )
  }

  private async remove(domain: DomainRow): Promise<DomainRow> {
    const userId = domain.user_id
    const now = this.now()
    await this.events.commit(async (raise) => {
      // Its links go with it (phpShort's rule): each raises its own link.deleted.
      const gone = await this.linksOf({ domainId: domain.id })
      await this.store.delete(domain.id)
      await raise(...cascadeDeletes(gone, 'domain', now), {
        type: 'domain.deleted',
        userId,
        at: now,
        data: { domain: toDomainRecord(domain) },
        domain: { id: domain.id, name: domain.name },
      })
    })
    return domain
  }

  findByName(name: string): Promise<DomainRow | undefined> {
    return this.store.findByName(name)
  }

  listAll(): Promise<DomainRow[]> {
    return this.store.listAll()
  }

  /**
   * Whether a host name is one slink serves (the default domain, a global one or any user's):
   * what a TLS proxy asks before getting a certificate for it. The name is read as a domain's
   * name is (IDNA, any case); a scheme, port or path makes it none.
   */
  async serves(host: string): Promise<boolean> {
    if (host.length > 253 || /[:/]/.test(host)) return false
    // The default domain's name is PUBLIC_URL's host, which may be one no user could add
    // (`localhost`): it is looked up as it is written there, in lower case.
    const name = parseDomainName(host)?.name ?? host.toLowerCase()
    return (await this.store.findByName(name)) !== undefined
  }

  /** The global domain `PUBLIC_URL` names, created (or its URL refreshed) at start-up. */
  async ensureDefault(publicUrl: URL): Promise<DomainRow> {
    const parsed = ownDomainOf(publicUrl)
    const existing = await this.store.findByName(parsed.name)
    if (!existing) {
      const fields = { ...parsed, index_page: null, not_found_page: null }
      try {
        return await this.store.create(null, fields, this.now())
      } catch (error) {
        // Another process created it first.
        if (!isUniqueViolation(error)) throw error
        return (await this.store.findByName(parsed.name))!
      }
    }
    if (existing.url === parsed.url) return existing
    return this.store.update(existing.id, { url: parsed.url }, this.now())
  }

  private async owned(userId: number, id: number): Promise<DomainRow> {
    const domain = await this.get(userId, id)
    if (domain.user_id === null) throw new ForbiddenError()
    return domain
  }

  /**
   * The fields to write. A name must be a host name (shared/domain-name.ts), not the default
   * domain's, and not another domain's: a user's domain may not take a global domain's name.
   */
  private async fields(
    input: DomainUpdateInput,
    errors: FieldErrors,
    ownerId: number | null,
    selfId: number | null,
  ): Promise<Partial<DomainFields>> {
    const fields: Partial<DomainFields> = {}
    if (input.name !== undefined && !errors.has('name')) {
      const parsed = parseDomainName(input.name)
      if (parsed === null) {
        errors.add('name', FORMAT_MESSAGES['domain-name']('name'))
      } else if (parsed.name === this.ownName) {
        errors.add('name', OWN)
      } else {
        const other = await this.store.findByName(parsed.name)
        if (other && other.id !== selfId)
          errors.add('name', ownerId !== null && other.user_id === null ? OWN : TAKEN)
        Object.assign(fields, parsed)
      }
    }
    if (input.index_page !== undefined) fields.index_page = input.index_page
    if (input.not_found_page !== undefined) fields.not_found_page = input.not_found_page
    return fields
  }
}
