/**
 * Draining a server before it closes: its answers say `Connection: close`, so every keep-alive
 * connection ends after its next answer instead of being cut while a request may be on its way.
 * Closing the server then only closes connections that stayed idle throughout.
 */
import type { Server } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'

const draining = new WeakSet<Server>()

export function isDraining(server: Server): boolean {
  return draining.has(server)
}

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.getConnections((error, count) => resolve(error ? 0 : count)),
  )
}

/** Marks `server` draining and resolves once it has no connection left, or after `maxMs`. */
export async function drain(server: Server, maxMs: number): Promise<void> {
  draining.add(server)
  const until = Date.now() + maxMs
  while (Date.now() < until && (await openConnections(server)) > 0) await sleep(20)
}
