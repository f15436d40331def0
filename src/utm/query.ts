/**
 * The utm_* parameters of a destination URL, read and written in its query string. Writing sets
 * a parameter in the place of its first occurrence (its repeats are dropped), appends it when
 * absent, and removes every occurrence when its value is empty; parameters not given, every
 * other pair (kept byte for byte) and the fragment are left as they are, in their order.
 *
 * Both functions use nothing outside themselves: the dashboard's script runs their own source
 * text (utm-script.ts), so the form's live fields and the server agree to the byte.
 */

/** `given`: the value of each parameter to write ('' removes it); a name left out is untouched. */
export function mergeUtm(
  url: string,
  given: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): string {
  const hashAt = url.indexOf('#')
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt)
  const queryAt = beforeHash.indexOf('?')
  const query = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1)
  const placed: Record<string, boolean> = {}
  const out: string[] = []
  let changed = false
  for (const pair of query === '' ? [] : query.split('&')) {
    const raw = pair.split('=')[0]!.replace(/\+/g, ' ')
    let name = raw
    try {
      name = decodeURIComponent(raw)
    } catch {
      name = raw
    }
    const value = names.indexOf(name) === -1 ? undefined : given[name]
    if (value === undefined) {
      out.push(pair)
      continue
    }
    const written = name + '=' + encodeURIComponent(value)
    if (value === '' || placed[name] === true) {
      changed = true
      continue
    }
    placed[name] = true
    if (written !== pair) changed = true
    out.push(written)
  }
  for (const name of names) {
    const value = given[name]
    if (value === undefined || value === '' || placed[name] === true) continue
    changed = true
    out.push(name + '=' + encodeURIComponent(value))
  }
  if (!changed) return url
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)
  return (
    base + (out.length > 0 ? '?' + out.join('&') : '') + (hashAt === -1 ? '' : url.slice(hashAt))
  )
}

/** The first value of each of `names` in the URL's query (absent names are left out). */
export function readUtm(url: string, names: readonly string[]): Record<string, string> {
  const hashAt = url.indexOf('#')
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt)
  const queryAt = beforeHash.indexOf('?')
  const found: Record<string, string> = {}
  if (queryAt === -1) return found
  for (const pair of beforeHash.slice(queryAt + 1).split('&')) {
    const eq = pair.indexOf('=')
    const parts = [eq === -1 ? pair : pair.slice(0, eq), eq === -1 ? '' : pair.slice(eq + 1)]
    for (let i = 0; i < 2; i++) {
      const raw = parts[i]!.replace(/\+/g, ' ')
      try {
        parts[i] = decodeURIComponent(raw)
      } catch {
        parts[i] = raw
      }
    }
    const name = parts[0]!
    if (names.indexOf(name) !== -1 && !Object.prototype.hasOwnProperty.call(found, name)) {
      found[name] = parts[1]!
    }
  }
  return found
}
