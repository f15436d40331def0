/**
 * Answers leave together: the answers finished during one turn of the event loop are written to
 * their sockets at the end of that turn, one write each, instead of each as it is finished.
 *
 * Why: a client on the same machine (a reverse proxy, a load generator) is usually asleep waiting
 * for its answer, and every write that wakes it costs the writing thread a cross-CPU wake-up
 * (about a fifth of a show's CPU here, see docs/performance.md, fourteenth round). Written
 * together, the first answer wakes it and the others find it awake. Nothing is dropped or
 * reordered: an answer's bytes wait in its socket's own buffer (the socket stays corked), and
 * a turn's answers go out at its end, in the order their sockets first waited.
 *
 * How: Node's `ServerResponse.end()` corks its socket, writes, and uncorks it fully; the last
 * uncork is what sends. Each connection's `uncork` is replaced: the last one puts the socket on
 * the turn's list instead, and the list is flushed from `setImmediate` (right after the sockets
 * of the turn have been read). Earlier uncorks of a nested cork count down as before.
 *
 * A long turn holds the answers made early in it: once the first has waited HOLD_MS, the next
 * answer sends them all at once. A single slow request (a search no index serves, over a million
 * links) still holds the answers made before it in its turn until it ends.
 *
 * Short-link visits are sent at once (`endAtOnce`): written together they measured no more
 * redirects a second, and the request thread spent 5–7 µs more a click (docs/performance.md,
 * fourteenth round).
 */
import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** The longest an answer waits for its turn to end, checked when another answer joins it. */
export const HOLD_MS = 2

/** True while an answer that must not wait is being ended. */
let atOnce = false

/** Ends `response` (with `body`, if any) and sends it now, whether or not writes are batched. */
export function endAtOnce(response: ServerResponse, body?: string): void {
  atOnce = true
  try {
    response.end(body)
  } finally {
    atOnce = false
  }
}

export function batchWrites(server: Server): void {
  const waiting = new Set<Socket>()
  let since = 0
  let scheduled = false

  const flush = () => {
    scheduled = false
    for (const socket of waiting) {
      if (!socket.destroyed && socket.writableCorked > 0) uncorkNow.call(socket)
    }
    waiting.clear()
  }

  let uncorkNow: Socket['uncork']
  function uncorkLater(this: Socket): void {
    if (atOnce || this.writableCorked !== 1) return uncorkNow.call(this)
    const now = performance.now()
    if (waiting.size === 0) since = now
    waiting.add(this)
    if (now - since > HOLD_MS) return flush()
    if (!scheduled) {
      scheduled = true
      setImmediate(flush)
    }
  }

  server.on('connection', (socket: Socket) => {
    uncorkNow ??= socket.uncork
    socket.uncork = uncorkLater
  })
}
