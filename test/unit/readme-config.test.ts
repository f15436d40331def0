import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONFIG_VARIABLES } from '../../src/config.js'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

/** The README's configuration table: variable → default and description, backticks removed. */
function readmeRows(): Map<string, { fallback: string; description: string }> {
  const rows = new Map<string, { fallback: string; description: string }>()
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    const name = /^`([A-Z_]+)`$/.exec(cells[1] ?? '')?.[1]
    if (name)
      rows.set(name, {
        fallback: (cells[2] ?? '').replace(/`/g, ''),
        description: (cells[3] ?? '').replace(/`/g, ''),
      })
  }
  return rows
}

/** The README's configuration table: variable → default. */
function readmeTable(): Map<string, string> {
  return new Map([...readmeRows()].map(([name, row]) => [name, row.fallback]))
}

describe('the README configuration table', () => {
  it('lists every variable the service reads, with its default, and nothing else', () => {
    const table = readmeTable()
    expect([...table.keys()].sort()).toEqual(CONFIG_VARIABLES.map(([name]) => name).sort())
    for (const [name, fallback] of CONFIG_VARIABLES) expect(table.get(name), name).toBe(fallback)
  })

  it('states the bounds config.ts states: every number of its description is in the README’s', () => {
    const rows = readmeRows()
    for (const [name, , description] of CONFIG_VARIABLES) {
      const numbers = description.match(/\d+/g) ?? []
      const readmeNumbers = rows.get(name)?.description.match(/\d+/g) ?? []
      for (const n of numbers) expect(readmeNumbers, `${name}: ${n}`).toContain(n)
    }
  })

  it('matches the variables config.ts actually reads', () => {
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8')
    const read = new Set([...source.matchAll(/env(?:\.|,\s*')([A-Z_]{3,})/g)].map((m) => m[1]!))
    expect([...read].sort()).toEqual(CONFIG_VARIABLES.map(([name]) => name).sort())
  })
})
