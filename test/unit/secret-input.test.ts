/** Reading a password: no echo on a terminal (raw mode, Backspace), first line from a pipe. */
import { PassThrough, Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { readSecret, SecretInputError } from '../../src/cli/secret-input.js'

function terminal() {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; setRawMode(on: boolean): void }
  const modes: boolean[] = []
  input.isTTY = true
  input.setRawMode = (on) => void modes.push(on)
  let shown = ''
  const prompts = new Writable({
    write(chunk: Buffer, _encoding, done) {
      shown += chunk.toString()
      done()
    },
  })
  return { input, prompts, modes, shown: () => shown }
}

describe('readSecret', () => {
  it('reads from a terminal without echo, in raw mode, honouring Backspace', async () => {
    const t = terminal()
    const reading = readSecret('New password: ', t.input, t.prompts)
    t.input.write('se')
    t.input.write('x\u007fcret 42\r')
    expect(await reading).toBe('secret 42')
    expect(t.shown()).toBe('New password: \n')
    expect(t.modes).toEqual([true, false])
  })

  it('gives up on Ctrl-C', async () => {
    const t = terminal()
    const reading = readSecret('New password: ', t.input, t.prompts)
    t.input.write('abc\u0003')
    await expect(reading).rejects.toBeInstanceOf(SecretInputError)
    expect(t.modes).toEqual([true, false])
  })

  it('reads the first line of a pipe', async () => {
    const input = new PassThrough()
    const reading = readSecret('unused: ', input)
    input.end('from a pipe\r\nsecond\n')
    expect(await reading).toBe('from a pipe')
  })
})
