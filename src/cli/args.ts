/**
 * Command-line arguments of every `slink` command: named values (`--email E`), switches
 * (`--progress`) and a fixed number of positional arguments, with one-line usage errors.
 */
import { parseArgs } from 'node:util'

export class UsageError extends Error {}

export interface ArgsSpec {
  values?: readonly string[]
  switches?: readonly string[]
  positionals?: number
}

export interface ParsedArgs {
  values: Record<string, string | undefined>
  /** Switches given, in order (a later one may undo an earlier one). */
  switches: string[]
  positionals: string[]
}

export function parseCommand(args: string[], spec: ArgsSpec): ParsedArgs {
  const names = new Set(spec.values ?? [])
  const switches = new Set(spec.switches ?? [])
  const options = Object.fromEntries([
    ...[...names].map((name) => [name, { type: 'string' as const }]),
    ...[...switches].map((name) => [name, { type: 'boolean' as const }]),
  ])
  const { tokens } = parseArgs({
    args,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  })
  const parsed: ParsedArgs = { values: {}, switches: [], positionals: [] }
  for (const token of tokens) {
    if (token.kind === 'positional') parsed.positionals.push(token.value)
    if (token.kind !== 'option') continue
    if (switches.has(token.name)) {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`)
      parsed.switches.push(token.name)
    } else if (names.has(token.name)) {
      if (token.value === undefined || token.value === '')
        throw new UsageError(`${token.rawName} needs a value`)
      parsed.values[token.name] = token.value
    } else {
      throw new UsageError(`unknown option ${token.rawName}`)
    }
  }
  const expected = spec.positionals ?? 0
  if (parsed.positionals.length !== expected) {
    throw new UsageError(
      expected === 0
        ? `unexpected argument "${parsed.positionals[0]}"`
        : `expected ${expected} argument${expected > 1 ? 's' : ''}, got ${parsed.positionals.length}`,
    )
  }
  return parsed
}
