/**
 * A served SQLite database is checkpointed by the click-writing thread: the request thread's
 * connection no longer does it (a checkpoint syncs the file), yet its writes still reach the
 * database file and the log starts over, so the log does not grow without end.
 */
import { openSync, readSync, closeSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server.js'

/** The log's checkpoint sequence: SQLite adds one each time a writer starts the log over. */
function checkpointSequence(dbPath: string): number {
  const fd = openSync(`${dbPath}-wal`, 'r')
  try {
    const header = Buffer.alloc(16)
    readSync(fd, header, 0, 16, 0)
    return header.readUInt32BE(12)
  } finally {
    closeSync(fd)
  }
}

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.stop())

describe('checkpoints of a served SQLite database', () => {
  it('start the log over while only the API writes, within a few seconds', async () => {
    const create = async (i: number) => {
      const reply = await server.api('POST', '/links', { url: `https://example.com/${i}` })
      expect(reply.status).toBe(201)
    }
    await create(0)
    const before = checkpointSequence(server.dbPath)
    let after = before
    // The writer thread checkpoints every second; the next write after a complete checkpoint
    // starts the log over.
    for (let i = 1; i <= 40 && after === before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      await create(i)
      after = checkpointSequence(server.dbPath)
    }
    expect(after).toBeGreaterThan(before)
  })
})
