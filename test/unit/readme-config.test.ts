import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONFIG_VARIABLES } from '../../src/config.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

/** The README's configuration table: variable → default, backticks removed. */
function readmeTable(): Map<string, string> {
  const rows = new Map<string, string>()
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const name = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1]
    if (name) rows.set(name, (cells[2] ?? '').replace(/`/g, ''))
  }
  return rows
}

describe('the README configuration table', () => {
  it('lists every variable the service reads, with its default, and nothing else', () => {
    const table = readmeTable()
    expect([...table.keys()].sort()).toEqual(CONFIG_VARIABLES.map(([name]) => name).sort())
    for (const [name, fallback] of CONFIG_VARIABLES) expect(table.get(name), name).toBe(fallback)
  })

  it('matches the variables config.ts actually reads', () => {
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8')
    const read = new Set([...source.matchAll(/env(?:\.|,\s*')([A-Z_]{3,})/g)].map((m) => m[1]!))
    expect([...read].sort()).toEqual(CONFIG_VARIABLES.map(([name]) => name).sort())
  })
})
