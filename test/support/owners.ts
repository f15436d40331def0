/** A user with a domain of their own, written by the stores, for tests that write links rows. */
import type { Db } from '../../src/db/connect.js'
import type { NewLinkRow, TargetColumn } from '../../src/db/types.js'
import { SqlDomainStore } from '../../src/domains/store.js'
import { NEW_LINK_DEFAULTS } from '../../src/links/field-rules.js'
import { SqlUserStore } from '../../src/users/store.js'

/** The time every row of these owners carries. */
export const OWNED_AT = 1_700_000_000_000

/** A user with a domain, and `link(alias)`, a new link row of theirs on it. */
export async function owner(db: Db, email: string) {
  const user = await new SqlUserStore(db).create({ name: email, email, timezone: 'UTC' }, OWNED_AT)
  const domain = await new SqlDomainStore(db).create(
    user.id,
    {
      name: `${user.id}.test`,
      url: `https://${user.id}.test`,
      index_page: null,
      not_found_page: null,
    },
    OWNED_AT,
  )
  const link = (alias: string) => newLinkRow(user.id, domain.id, alias)
  return { id: user.id, link }
}

/**
 * A new link row with every default of a create (NEW_LINK_DEFAULTS) and no targeting lists: the
 * stores take it, and so does an insert into the table.
 */
export function newLinkRow(
  userId: number,
  domainId: number,
  alias: string,
  at = OWNED_AT,
): Omit<NewLinkRow, TargetColumn> {
  return {
    user_id: userId,
    domain_id: domainId,
    alias,
    url: `https://example.com/${alias}`,
    ...NEW_LINK_DEFAULTS,
    created_at: at,
    updated_at: at,
  }
}
