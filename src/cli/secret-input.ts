/**
 * Reads a secret (a password) from standard input: on a terminal, after a prompt on stderr,
 * with echo off (raw mode; Backspace works, Ctrl-C and Ctrl-D give up); from a pipe or a file,
 * its first line.
 */
const MAX_LENGTH = 4096

/** What is read: standard input, or a stand-in for it in tests. */
export interface SecretSource extends NodeJS.ReadableStream {
  isTTY?: boolean
  setRawMode?(on: boolean): unknown
}

export class SecretInputError extends Error {}

export function readSecret(
  prompt: string,
  input: SecretSource = process.stdin,
  prompts: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  return input.isTTY && input.setRawMode
    ? fromTerminal(prompt, input, (on) => input.setRawMode?.(on), prompts)
    : firstLine(input)
}

function fromTerminal(
  prompt: string,
  input: NodeJS.ReadableStream,
  setRawMode: (on: boolean) => void,
  prompts: NodeJS.WritableStream,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let typed = ''
    prompts.write(prompt)
    setRawMode(true)
    input.resume()
    input.setEncoding('utf8')
    const finish = (error: Error | null) => {
      input.off('data', onData)
      setRawMode(false)
      input.pause()
      prompts.write('\n')
      if (error) reject(error)
      else resolve(typed)
    }
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(null)
        if (char === '\u0003' || char === '\u0004') {
          return finish(new SecretInputError('no password given'))
        }
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('')
        else if (typed.length < MAX_LENGTH) typed += char
      }
    }
    input.on('data', onData)
  })
}

/** The first line of `input` (read no further than it needs). */
export async function firstLine(
  input: AsyncIterable<Buffer | string> | NodeJS.ReadableStream,
): Promise<string> {
  let text = ''
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8')
    if (text.includes('\n') || text.length > MAX_LENGTH) break
  }
  return text.split(/\r?\n/)[0] ?? ''
}
