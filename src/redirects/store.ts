/**
 * What the redirect reads and the one thing it writes synchronously: a link (with its pixels)
 * by domain and alias, a domain by host name, and the atomic step of a click-limited link.
 */
import type { Db } from '../db/connect.js'
import { writeNowIfIdle } from '../db/write-lock.js'
import type { DomainRow, LinkRow } from '../db/types.js'
import { linkFromStored } from '../links/stored-link.js'
import type { MaybePromise } from '../shared/maybe-promise.js'

export interface RedirectLinkRow {
  link: LinkRow
  pixels: { type: string; value: string }[]
}

export interface RedirectStore {
  findDomain(name: string): Promise<DomainRow | undefined>
  findLink(domainId: number, alias: string): Promise<RedirectLinkRow | undefined>
  /**
   * Counts one click of a click-limited link if it has clicks left: `taken`, or `last` when it
   * took the last one; `refused` when none was left. This is the only write a redirect waits
   * for; everything else is batched after the response.
   */
  takeLimitedClick(linkId: number): MaybePromise<LimitedClick>
}

export type LimitedClick = 'taken' | 'last' | 'refused'

function limitedClick(row: { left: number | string } | undefined): LimitedClick {
  if (row === undefined) return 'refused'
  return Number(row.left) <= 0 ? 'last' : 'taken'
}

export class SqlRedirectStore implements RedirectStore {
  private readonly takeSync: ((linkId: number) => LimitedClick) | null

  constructor(private readonly db: Db) {
    const sqlite = db.sqlite
    if (sqlite) {
      const statement = sqlite.prepare(
        'UPDATE links SET clicks = clicks + 1 WHERE id = ? AND expiration_clicks > 0 AND clicks < expiration_clicks RETURNING expiration_clicks - clicks AS left',
      )
      this.takeSync = (linkId) =>
        limitedClick(statement.get(linkId) as { left: number } | undefined)
    } else {
      this.takeSync = null
    }
  }

  findDomain(name: string): Promise<DomainRow | undefined> {
    return this.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst()
  }

  async findLink(domainId: number, alias: string): Promise<RedirectLinkRow | undefined> {
    const row = await this.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('domain_id', '=', domainId)
      .where('alias', '=', alias)
      .executeTakeFirst()
    if (!row) return undefined
    const link = linkFromStored(row)
    const pixels = await this.db.kysely
      .selectFrom('link_pixels')
      .innerJoin('pixels', 'pixels.id', 'link_pixels.pixel_id')
      .select(['pixels.type', 'pixels.value'])
      .where('link_pixels.link_id', '=', link.id)
      .orderBy('pixels.id')
      .execute()
    return { link, pixels }
  }

  takeLimitedClick(linkId: number): MaybePromise<LimitedClick> {
    // Synchronous on SQLite while no transaction is open on the connection.
    const takeSync = this.takeSync
    const taken = takeSync === null ? undefined : writeNowIfIdle(this.db, () => takeSync(linkId))
    if (taken !== undefined) return taken
    return this.db.kysely
      .updateTable('links')
      .set((eb) => ({ clicks: eb('clicks', '+', 1) }))
      .where('id', '=', linkId)
      .where('expiration_clicks', '>', 0)
      .whereRef('clicks', '<', 'expiration_clicks')
      .returning((eb) => eb(eb.ref('expiration_clicks'), '-', eb.ref('clicks')).as('left'))
      .executeTakeFirst()
      .then((row) => limitedClick(row as { left: number | string } | undefined))
  }
}
