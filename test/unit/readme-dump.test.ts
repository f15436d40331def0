import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TABLE_ORDER } from '../../src/transfer/tables.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('the README’s list of what a dump holds', () => {
  it('names every table a dump carries, the secrets kept in clear among them', () => {
    const start = readme.indexOf('**A dump is as secret as the database**')
    const end = readme.indexOf('Whoever holds a dump', start)
    expect(start).toBeGreaterThan(-1)
    expect(end).toBeGreaterThan(start)
    const section = readme.slice(start, end)
    const named = new Set([...section.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]))
    for (const table of TABLE_ORDER) expect(named, table).toContain(table)
    for (const secret of ['cookie_secret', 'csrf_secret']) expect(named).toContain(secret)
    expect(section).toContain('`webhooks` with **their signing secrets in clear**')
  })
})
