/** Values the service keeps for itself in the settings table, shared by every process. */
import { randomBytes } from 'node:crypto'
import type { Db } from './connect.js'

/** A random secret created on first use; every process reads the same one. */
export async function sharedSecret(db: Db, name: string): Promise<Buffer> {
  await db.kysely
    .insertInto('settings')
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const row = await db.kysely
    .selectFrom('settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow()
  return Buffer.from(row.value, 'base64')
}

/** The `PUBLIC_URL` the service last started with: where the CLI's links point by default. */
export async function rememberPublicUrl(db: Db, url: URL): Promise<void> {
  await db.kysely
    .insertInto('settings')
    .values({ name: 'public_url', value: url.href })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: url.href }))
    .execute()
}

/** The `PUBLIC_URL` the service last started with, if it ever started on this database. */
export async function storedPublicUrl(db: Db): Promise<URL | null> {
  const row = await db.kysely
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'public_url')
    .executeTakeFirst()
  return row && URL.canParse(row.value) ? new URL(row.value) : null
}
