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
