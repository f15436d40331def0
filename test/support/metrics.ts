/**
 * Reading the Prometheus text format in tests: samples by name and labels, and the text checked
 * by the real `promtool check metrics` (Debian's `prometheus` package).
 */
import { spawn, spawnSync } from 'node:child_process'

/** `name{a="1",b="2"}` (labels sorted) → value. */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match) throw new Error(`not a sample line: ${line}`)
    const labels = (match[2] ?? '').match(/[a-zA-Z_]+="(?:[^"\\]|\\.)*"/g) ?? []
    out.set(sampleKey(match[1]!, labels.sort()), Number(match[3]))
  }
  return out
}

export function sample(name: string, labels: Record<string, string> = {}): string {
  return sampleKey(
    name,
    Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .sort(),
  )
}

function sampleKey(name: string, labels: string[]): string {
  return labels.length === 0 ? name : `${name}{${labels.join(',')}}`
}

export const hasPromtool = spawnSync('promtool', ['--version']).status === 0

/** Runs `promtool check metrics` over `text`: its exit code and what it said. */
export function promtoolCheck(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output }))
    child.stdin.end(text)
  })
}
