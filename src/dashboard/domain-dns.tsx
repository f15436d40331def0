/**
 * What a domain needs in DNS so that its visits reach this server, as the Domains screens say
 * it: a CNAME to the default domain's host, or A/AAAA records to this server's addresses. The
 * certificate needs nothing more when Caddy fronts the server (docs/deploy.md).
 */
import type { DomainRow } from '../db/types.js'

/** The line under the Domains heading: the record to create and where the certificate comes from. */
export function dnsIntro(defaultHost: string): string {
  return [
    `For each domain, create one DNS record: a CNAME to ${defaultHost}, or A and AAAA records`,
    `to this server's IPv4 and IPv6 addresses (the ones ${defaultHost} has; a bare domain such`,
    'as example.com cannot have a CNAME, so it needs A and AAAA). Its HTTPS certificate then',
    'comes by itself on the first visit, when Caddy fronts this server as docs/deploy.md says.',
  ].join(' ')
}

/** The record for one domain, in the DNS column of the list. */
export function DnsRecord(props: { domain: DomainRow; defaultHost: string }) {
  const { name } = props.domain
  if (name === props.defaultHost) return <span>A/AAAA to this server's addresses</span>
  return (
    <span>
      <code>
        {name} CNAME {props.defaultHost}
      </code>{' '}
      or A/AAAA to this server's addresses
    </span>
  )
}
