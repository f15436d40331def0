/**
 * The click stream's events (CLICK_STREAM_URL, docs/deploy.md): one JSON object per stored click,
 * planned with its batch and written in the batch's transaction (`click_stream`). The event's
 * `id` (the row's id) is added when it is published. Region and city are not known today, so the
 * events leave them out; counted clicks are never bots' (bots are answered without counting).
 */
import type { Db } from '../db/connect.js'
import type { NewClickStreamRow } from '../db/types.js'
import type { ClickRow } from './event.js'

interface LinkFacts {
  alias: string
  url: string
  domain: string
}

export async function planStreamEvents(
  db: Db,
  rows: readonly ClickRow[],
): Promise<NewClickStreamRow[]> {
  if (rows.length === 0) return []
  const ids = [...new Set(rows.map((r) => r.link_id))]
  const links = new Map<number, LinkFacts>()
  for (let i = 0; i < ids.length; i += 500) {
    const found = await db.kysely
      .selectFrom('links')
      .innerJoin('domains', 'domains.id', 'links.domain_id')
      .select(['links.id', 'links.alias', 'links.url', 'domains.name as domain'])
      .where('links.id', 'in', ids.slice(i, i + 500))
      .execute()
    for (const link of found) links.set(link.id, link)
  }
  const out: NewClickStreamRow[] = []
  for (const row of rows) {
    const link = links.get(row.link_id)
    // A link deleted meanwhile: its click is not stored either.
    if (link === undefined) continue
    out.push({
      link_id: row.link_id,
      event: JSON.stringify({
        time: new Date(row.at).toISOString(),
        link: row.link_id,
        domain: link.domain,
        alias: link.alias,
        destination: link.url,
        country: row.country,
        platform: row.platform,
        device: row.device,
        browser: row.browser,
        language: row.language,
        referrer: row.referrer,
        visitor: row.visitor,
        source: 'redirect',
        bot: false,
      }),
    })
  }
  return out
}

/** The published JSON: the stored event with its id first. */
export function withId(id: number, event: string): string {
  return `{"id":${id},${event.slice(1)}`
}
