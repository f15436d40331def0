/**
 * The V8 heap of a serving process.
 *
 * Pretenuring: V8 can decide that an allocation site's objects live long from what survives
 * its first collections, and then allocate them straight in the old generation. At the start of
 * a server under load it decided so for the sites of the request path in about half the starts
 * (probably from the first burst of requests in flight), and the decision stayed: every
 * request's short-lived objects then went to the old generation, which filled in under a second
 * and was collected again and again, and young collections took five times as long. The same
 * build served 36,707–44,021 counted redirects a second after such a start and 57,473–61,201
 * after another, the garbage collector taking 846–882 ms of each 5 s against 127–133 ms. A
 * server's long-lived objects are few and made at start; without pretenuring every start is the
 * fast one.
 *
 * Old-generation growth: a full collection runs once the old generation has grown by
 * OLD_GENERATION_GROWTH_PERCENT over what survived the last one, not by V8's default of up to
 * four times (docs/adr/0006-old-generation-growth.md).
 */
import { setFlagsFromString } from 'node:v8'

/** How far the old generation grows past what survived the last full collection, in percent. */
export const OLD_GENERATION_GROWTH_PERCENT = 50

/** Called once, before the service starts (V8 reads these flags at each collection). */
export function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring')
  setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`)
}
