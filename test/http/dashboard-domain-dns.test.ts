/**
 * The Domains screens tell a user what DNS record each domain needs: a CNAME to the default
 * domain's host, or A/AAAA records to this server's addresses, and that the certificate comes
 * by itself on the first visit when Caddy fronts the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { FormClient } from '../support/dashboard.js'
import { createDomain, expectStatus } from './helpers.js'

let t: TestApp
let alice: FormClient
beforeAll(async () => {
  t = await createTestApp()
  await t.services.accounts.setPassword(t.userA, 'alice password')
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
})
afterAll(() => t.close())

const INTRO =
  "For each domain, create one DNS record: a CNAME to short.test, or A and AAAA records to this server's IPv4 and IPv6 addresses (the ones short.test has; a bare domain such as example.com cannot have a CNAME, so it needs A and AAAA). Its HTTPS certificate then comes by itself on the first visit, when Caddy fronts this server as docs/deploy.md says."

/** The text of an element, without its tags, with entities read. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
}

describe('the DNS record of each domain', () => {
  it('shows a CNAME to the default domain, or A/AAAA, for each of the user’s domains', async () => {
    const own = await createDomain(t, { name: 'links.example.org' })
    const res = await alice.get('/dashboard/domains')
    expectStatus(res, 200)
    expect(text(res.body)).toContain(INTRO)
    const row = new RegExp(`<tr id="item-${own.id}">.*?</tr>`).exec(res.body)?.[0] ?? ''
    const cell = /<td data-label="DNS record">(.*?)<\/td>/.exec(row)?.[1] ?? ''
    expect(cell).toContain('<code>links.example.org CNAME short.test</code>')
    expect(text(cell)).toBe(
      "links.example.org CNAME short.test or A/AAAA to this server's addresses",
    )
    const home = new RegExp(`<tr id="item-${t.defaultDomainId}">.*?</tr>`).exec(res.body)?.[0] ?? ''
    const homeCell = /<td data-label="DNS record">(.*?)<\/td>/.exec(home)?.[1] ?? ''
    expect(text(homeCell)).toBe("A/AAAA to this server's addresses")
  })
})
