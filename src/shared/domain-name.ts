/**
 * The names a domain may have: a host name of two or more labels in its IDNA (punycode) form,
 * without a port, a trailing dot or an address. One check for the API, the dashboard and the CLI.
 */
import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'

/** A letter or digit, then up to 61 letters, digits or hyphens, ending with a letter or digit. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/
const MAX_NAME_LENGTH = 253

/**
 * `example.com`, `Bücher.de` or `http://go.example.com` (the scheme defaults to https, one
 * trailing `/` is allowed) → host name and base URL; anything else (a port, a path, an
 * address, `localhost`, `a..b`, `-a.com`, `example.com.`) → null.
 */
export function parseDomainName(input: string): { name: string; url: string } | null {
  // Nothing that would make the rest more than a host: no port, path, user, brackets or escapes.
  const parts = /^(?:(https?):\/\/)?([^/?#@:%[\]\\\s]+)\/?$/i.exec(input)
  if (parts === null) return null
  const name = hostName(parts[2]!)
  if (name === null) return null
  return { name, url: `${(parts[1] ?? 'https').toLowerCase()}://${name}` }
}

/** The host name `raw` stands for after IDNA, if it is one a domain may have. */
function hostName(raw: string): string | null {
  // Also what turns `2130706433` or `0x7f.1` into the address they mean, refused below.
  const name = domainToASCII(raw)
  if (name === '' || name.length > MAX_NAME_LENGTH || isIP(name) !== 0) return null
  const labels = name.split('.')
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null
  // A name ending in a number is read as an IPv4 address by URL parsers.
  if (/^(?:\d+|0x[0-9a-f]*)$/.test(labels[labels.length - 1]!)) return null
  return name
}

/** The default domain's name and URL: the host and origin of `PUBLIC_URL`, whatever they are. */
export function ownDomainOf(publicUrl: URL): { name: string; url: string } {
  return { name: publicUrl.hostname, url: publicUrl.origin }
}
