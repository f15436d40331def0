/**
 * Group commit for the SQLite file: the transactions that requests start in the same turn of
 * the event loop are written together and committed once. A commit writes every page its
 * transaction changed to the log, and a link's create changes about eight (the table's last
 * page, each index's, the id sequence, the search index's), mostly the same ones as the next
 * create's; each commit also makes the read-only connection drop its page cache. With every
 * create committed on its own, 50 concurrent creates took twice the CPU each
 * (docs/adr/0004-group-commit.md).
 *
 * A group is the transactions requested in one turn of the event loop: the first waits for the
 * end of that turn (setImmediate), so the requests read in the same turn join it, and then
 * they run one after another inside one SQLite transaction, each in a savepoint of its own,
 * and commit once. The write lock is held while they run, not while the group gathers them.
 *
 * When another connection holds the write lock (a cluster worker's group, the click writer's
 * batch), the group waits for it in SQLite's busy handler (write-lock.ts).
 * One that fails rolls back to its savepoint, and the others keep their changes. None is
 * answered before the group's commit, so a transaction that has resolved is stored, as before.
 * A group holds at most GROUP_MAX transactions: a query outside a transaction waits behind at
 * most that many.
 *
 * If SQLite itself abandons the group's transaction (the disk is full, an I/O error), every
 * transaction of the group fails with that error: none of them was answered, none is stored.
 */
import { AsyncResource } from 'node:async_hooks'
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from './types.js'
import { statementsOf } from './write-lock.js'

const GROUP_MAX = 64

interface Member {
  /** The transaction's work, in the async context of its caller, on the group's connection. */
  run(connection: Kysely<Database>): Promise<unknown>
  resolve(value: unknown): void
  reject(error: unknown): void
}

export class CommitGroups {
  private readonly queue: Member[] = []
  private draining = false
  private readonly sql: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    SQLite.Statement
  >

  /**
   * `within(connection, work)` runs work with the connection as its transaction (Db.kysely).
   * `endSnapshot` ends the reader's snapshot (db/read-snapshot.ts): before each group waits for
   * the write lock, since a restart checkpoint that holds the lock waits for that reader, and
   * after each commit, before any member resolves, so that what follows reads what was written.
   */
  constructor(
    private readonly root: Kysely<Database>,
    private readonly handle: SQLite.Database,
    private readonly within: <T>(
      connection: Kysely<Database>,
      work: () => Promise<T>,
    ) => Promise<T>,
    private readonly endSnapshot: () => void = () => {},
  ) {
    this.sql = {
      begin: statementsOf(handle).begin,
      savepoint: handle.prepare('SAVEPOINT member'),
      release: handle.prepare('RELEASE member'),
      rollbackTo: handle.prepare('ROLLBACK TO member'),
      commit: statementsOf(handle).commit,
      rollback: statementsOf(handle).rollback,
    }
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    // The caller's async context, kept for its work. Not `AsyncResource.bind`: in Node 20 that
    // defines a deprecated getter and setter on every bound function (about 20 µs a call).
    const context = new AsyncResource('slink.commit-group')
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        run: (connection) =>
          context.runInAsyncScope(() => this.within(connection, work)) as Promise<unknown>,
        resolve: resolve as (value: unknown) => void,
        reject,
      })
      if (!this.draining) this.drain()
    })
  }

  private drain(): void {
    this.draining = true
    setImmediate(() => this.runGroups())
  }

  private runGroups(): void {
    this.root
      .connection()
      .execute(async (connection) => {
        while (this.queue.length > 0) await this.group(connection)
      })
      .catch((error: unknown) => {
        // The connection could not be had: nothing queued can run.
        for (const member of this.queue.splice(0)) member.reject(error)
      })
      .finally(() => {
        this.draining = false
        // Queued after the last group ended and before the connection was given back.
        if (this.queue.length > 0) this.drain()
      })
  }

  private async group(connection: Kysely<Database>): Promise<void> {
    try {
      this.endSnapshot()
      this.sql.begin.run()
    } catch (error) {
      // The write lock stayed with another connection past the busy timeout: the first in line
      // fails as its own transaction would have, the others try again.
      this.queue.shift()?.reject(error)
      return
    }
    const stored = await this.runGroup(connection)
    for (const [member, value] of stored) member.resolve(value)
  }

  /**
   * The members of one group, in the transaction `group` has begun, and its commit: the members
   * stored, to be resolved (the others are rejected here).
   */
  private async runGroup(connection: Kysely<Database>): Promise<[Member, unknown][]> {
    const { sql } = this
    const done: [Member, unknown][] = []
    for (let count = 0; count < GROUP_MAX && this.queue.length > 0; count++) {
      const member = this.queue.shift()!
      sql.savepoint.run()
      try {
        const value = await member.run(connection)
        sql.release.run()
        done.push([member, value])
      } catch (error) {
        member.reject(error)
        if (this.handle.inTransaction) {
          sql.rollbackTo.run()
          sql.release.run()
        } else {
          // SQLite rolled the whole group back: what the others wrote is gone too.
          for (const [other] of done) other.reject(error)
          return []
        }
      }
    }
    try {
      sql.commit.run()
      this.endSnapshot()
    } catch (error) {
      if (this.handle.inTransaction) sql.rollback.run()
      for (const [member] of done) member.reject(error)
      return []
    }
    return done
  }
}
