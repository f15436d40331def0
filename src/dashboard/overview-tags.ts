/**
 * The Overview's tag choice: the user's tags by name (the first hundred, as the links list's
 * spaces), and the tag `?tag=` asks for, found ignoring case, or the name no tag of the user
 * has. An empty value is all links; a repeated one is a name no tag has.
 */
import type { DashboardServices } from './context.js'
import type { OverviewTags } from './overview-page.js'
import { parameter } from './own-link.js'

const SHOWN = 100

export async function overviewTags(
  services: DashboardServices,
  userId: number,
  value: unknown,
): Promise<OverviewTags> {
  const name = parameter(value)?.trim()
  const [list, found] = await Promise.all([
    services.tags.list(userId, { sortBy: 'name' }, { page: 1, perPage: SHOWN, sort: 'asc' }),
    name ? services.tags.findByName(userId, name) : undefined,
  ])
  const names = list.rows.map((tag) => tag.name)
  if (!name) return { names, asked: null }
  return { names, asked: found ? { id: found.id, name: found.name } : { unknown: name } }
}
