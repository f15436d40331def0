/**
 * The layering of src/, read from the source's import lines with the TypeScript parser:
 * no cycle between top-level folders, the domain folders free of Fastify (the HTTP edge is
 * src/http/, src/edge/ and src/dashboard/), the redirect engine free of pages, and the redirect
 * folder free of the parts the composition root builds.
 *
 * A cycle counts every import, `import type` and imports of types only included. src/composition/
 * is the composition root: it builds the services, the HTTP app and the server. A file at the
 * top of src/ (config.ts) is a node of its own.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const ROOT = 'composition'

/** The folders of the domain: they know nothing of HTTP. */
const DOMAIN_FOLDERS = [
  'clicks',
  'cluster',
  'db',
  'domains',
  'events',
  'imports',
  'limits',
  'links',
  'outbound',
  'pages',
  'passwords',
  'pixels',
  'redirects',
  'resources',
  'sessions',
  'shared',
  'spaces',
  'stats',
  'tags',
  'threads',
  'transfer',
  'users',
  'utm',
  'visitors',
  'webhooks',
]

/**
 * The edges (HTTP, the command line, the Prometheus endpoint) and the composition root, which
 * may know Fastify and prom-client.
 */
const EDGE_FOLDERS = ['cli', 'composition', 'dashboard', 'edge', 'http', 'metrics']

interface Import {
  from: string
  to: string
  /** Whether it loads the module at run time (not erased as types only). */
  loads: boolean
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** `src/links/service.ts` → `links`; a file at the top, `src/config.ts` → `config`. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split('/')
  return parts.length === 1 ? parts[0]!.replace(/\.tsx?$/, '') : parts[0]!
}

/** Whether a module name is Fastify or one of its plugins. */
function isFastify(specifier: string): boolean {
  return specifier === 'fastify' || specifier.startsWith('@fastify/')
}

/**
 * The Fastify modules a source text names: imports and exports (types only too), dynamic
 * imports, and `declare module` augmentations.
 */
function fastifyModulesOf(file: string, text: string): string[] {
  const out: string[] = []
  const visit = (node: ts.Node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)
          ? node.name.text
          : ts.isCallExpression(node) &&
              node.expression.kind === ts.SyntaxKind.ImportKeyword &&
              node.arguments[0] !== undefined &&
              ts.isStringLiteral(node.arguments[0])
            ? node.arguments[0].text
            : undefined
    if (specifier !== undefined && isFastify(specifier)) out.push(specifier)
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false))
  return out
}

function typesOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true
    const named = node.exportClause
    return (
      named !== undefined && ts.isNamedExports(named) && named.elements.every((e) => e.isTypeOnly)
    )
  }
  const clause = node.importClause
  if (clause === undefined) return false
  if (clause.isTypeOnly) return true
  if (clause.name !== undefined) return false
  const bindings = clause.namedBindings
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  )
}

/** Every relative import of every file of src/, static and dynamic. */
function importsOfSrc(): Import[] {
  const out: Import[] = []
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false)
    const add = (specifier: string, loads: boolean) => {
      if (!specifier.startsWith('.')) return
      out.push({ from: file, to: resolve(dirname(file), specifier), loads })
    }
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier !== undefined &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(node.moduleSpecifier.text, !typesOnly(node))
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text, true)
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}

/** The cycles of a graph, one per strongly connected component (Tarjan), each as a path. */
function cyclesOf(edges: Map<string, Set<string>>): string[] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const connect = (v: string) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!))
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v)
  return components.map((c) => c.join(' ↔ '))
}

/** The folder graph of every import (types only included). */
function folderGraph(imports: Import[]) {
  const edges = new Map<string, Set<string>>()
  for (const { from, to } of imports) {
    const a = folderOf(from)
    const b = folderOf(to)
    if (a === b) continue
    if (!edges.has(a)) edges.set(a, new Set())
    edges.get(a)!.add(b)
  }
  return edges
}

const imports = importsOfSrc()
const inFolder = (path: string, folder: string) => relative(SRC, path).startsWith(`${folder}/`)

describe('the layering of src/', () => {
  it('reads the imports of the whole tree (the parser found the files and their imports)', () => {
    expect(imports.length).toBeGreaterThan(500)
    const graph = folderGraph(imports)
    expect(graph.get('redirects')).toContain('links')
    expect(graph.get(ROOT)).toContain('redirects')
  })

  it('finds a cycle when there is one (the checker itself can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ])
    expect(cyclesOf(graph)).toEqual(['a ↔ b ↔ c'])
  })

  it('has no import cycle between top-level folders, imports of types included', () => {
    expect(cyclesOf(folderGraph(imports))).toEqual([])
  })

  it('finds a Fastify import when there is one (the checker itself can fail)', () => {
    const text = [
      "import type { FastifyReply } from 'fastify'",
      "import { Busboy } from '@fastify/busboy'",
      "export type { FastifyRequest } from 'fastify'",
      "declare module 'fastify' { interface FastifyRequest { x?: number } }",
      "const later = () => import('@fastify/swagger')",
      "import { join } from 'node:path'",
      "import { fastifyLike } from './fastify.js'",
    ].join('\n')
    expect(fastifyModulesOf('sample.ts', text)).toEqual([
      'fastify',
      '@fastify/busboy',
      'fastify',
      'fastify',
      '@fastify/swagger',
    ])
  })

  it('names every folder of src/ as part of the domain or of an edge', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    expect(folders.sort()).toEqual([...DOMAIN_FOLDERS, ...EDGE_FOLDERS].sort())
  })

  it('keeps Fastify out of the domain folders: only the edges and the root know it', () => {
    const offending = sourceFiles(SRC)
      .filter((file) => DOMAIN_FOLDERS.includes(relative(SRC, file).split('/')[0]!))
      .filter((file) => fastifyModulesOf(file, readFileSync(file, 'utf8')).length > 0)
      .map((file) => relative(SRC, file))
    expect(offending).toEqual([])
  })

  it('keeps the domain folders from importing the edges or the root (Fastify comes no way in)', () => {
    const offending = imports
      .filter(
        (i) => DOMAIN_FOLDERS.includes(folderOf(i.from)) && EDGE_FOLDERS.includes(folderOf(i.to)),
      )
      .map((i) => `${relative(SRC, i.from)} → ${relative(SRC, i.to)}`)
    expect(offending).toEqual([])
  })

  it('keeps the redirect engine free of pages: it decides, the HTTP edge renders', () => {
    const offending = imports
      .filter((i) => inFolder(i.from, 'redirects') && inFolder(i.to, 'pages'))
      .map((i) => relative(SRC, i.from))
    expect(offending).toEqual([])
  })

  it('keeps the page library unaware of the engine (the edge brings the two together)', () => {
    const offending = imports
      .filter((i) => inFolder(i.from, 'pages') && inFolder(i.to, 'redirects'))
      .map((i) => relative(SRC, i.from))
    expect(offending).toEqual([])
  })

  it('leaves building the click and cluster parts to the composition root', () => {
    const builds = imports
      .filter(
        (i) =>
          i.loads &&
          inFolder(i.from, 'redirects') &&
          (inFolder(i.to, 'clicks') || inFolder(i.to, 'cluster') || inFolder(i.to, 'webhooks')),
      )
      .map((i) => `${relative(SRC, i.from)} → ${relative(SRC, i.to)}`)
    expect(builds).toEqual([])
  })

  it('keeps prom-client in src/metrics/ and the composition root: the rest counts through Metrics', () => {
    const users = sourceFiles(SRC)
      .filter((file) => /from 'prom-client'/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
    expect(users.length).toBeGreaterThan(0)
    expect(users.filter((path) => !/^(metrics|composition)\//.test(path))).toEqual([])
  })
})
