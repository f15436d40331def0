import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractTitle, fetchTitle } from '../../src/links/title-fetch.js'
import { startPagesServer, type PagesServer } from '../support/pages-server.js'

let site: PagesServer
beforeAll(async () => {
  site = await startPagesServer()
  site.html(
    '/page',
    '<html><head><title>\n  Caf&eacute; &amp; Bar &#x2014;  Menu </title></head></html>',
  )
  site.html('/plain', '<title>Plain page</title>')
  site.on('/json', (_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json' })
    r.end('{"title":"no"}')
  })
  for (let i = 0; i < 5; i++) {
    site.on(`/hop${i}`, (_q, r) => {
      r.writeHead(302, { location: i === 4 ? '/plain' : `/hop${i + 1}` })
      r.end()
    })
  }
  site.on('/slow', (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/html' })
    setTimeout(() => r.end('<title>Too late</title>'), 3000)
  })
  site.html('/late-title', `<html>${' '.repeat(300 * 1024)}<title>Past the limit</title></html>`)
})
afterAll(() => site.close())

describe('title fetching', () => {
  it('reads the title, decoding entities and folding white space', async () => {
    expect(await fetchTitle(`${site.origin}/page`, { allowPrivate: true })).toBe(
      'Café & Bar — Menu',
    )
  })

  it('never fetches from loopback or private addresses unless allowed', async () => {
    expect(await fetchTitle(`${site.origin}/plain`)).toBeNull()
    const port = new URL(site.origin).port
    expect(await fetchTitle(`http://localhost:${port}/plain`)).toBeNull()
    expect(await fetchTitle('http://10.0.0.1/')).toBeNull()
    expect(await fetchTitle('http://[::1]/')).toBeNull()
  })

  it('follows at most three redirects', async () => {
    expect(await fetchTitle(`${site.origin}/hop2`, { allowPrivate: true })).toBe('Plain page')
    expect(await fetchTitle(`${site.origin}/hop0`, { allowPrivate: true })).toBeNull()
  })

  it('reads only HTML, within the time and size limits', async () => {
    expect(await fetchTitle(`${site.origin}/json`, { allowPrivate: true })).toBeNull()
    expect(await fetchTitle(`${site.origin}/missing`, { allowPrivate: true })).toBeNull()
    const started = Date.now()
    expect(
      await fetchTitle(`${site.origin}/slow`, { allowPrivate: true, timeoutMs: 500 }),
    ).toBeNull()
    expect(Date.now() - started).toBeLessThan(2000)
    expect(await fetchTitle(`${site.origin}/late-title`, { allowPrivate: true })).toBeNull()
  })

  it('keeps at most 255 characters of a title', () => {
    expect(extractTitle(`<title>${'x'.repeat(400)}</title>`)).toBe('x'.repeat(255))
    expect(extractTitle('<title>   </title>')).toBeNull()
    expect(extractTitle('<p>no title</p>')).toBeNull()
  })
})
