import { sql, type Kysely } from 'kysely'

/**
 * API keys keep in clear only the prefix shared/secrets.ts `keyPrefix` gives: `slk_` and 8
 * characters for a key of that form and at least 24 characters, else the first 8. Before, a key
 * kept its first 12 characters, or half of itself when shorter than 24 (up to 11 characters of
 * a 22-character INITIAL_API_KEY). Every stored prefix longer than the rule allows is cut to 8
 * characters; a 12-character `slk_` prefix already follows it. A key's lookup (by its prefix)
 * and its hash are unchanged, so every key still authenticates. The same statement on both engines.
 */
export function shortKeyPrefixes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await sql`UPDATE api_keys SET prefix = substr(prefix, 1, 8)
        WHERE length(prefix) > 8 AND NOT (length(prefix) = 12 AND substr(prefix, 1, 4) = 'slk_')`.execute(
        db,
      )
    },
  }
}
