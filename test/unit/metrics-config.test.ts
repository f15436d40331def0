/**
 * METRICS_PORT and METRICS_TOKEN as src/config.ts reads them: off by default, and a bad value
 * stops the start with one line naming the variable.
 */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'

const TOKEN = 'metrics-token-0123456789abcdef'

describe('METRICS_PORT and METRICS_TOKEN', () => {
  it('are off unless set', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: null, metricsToken: null })
    expect(loadConfig({ METRICS_PORT: ' ', METRICS_TOKEN: '' })).toMatchObject({
      metricsPort: null,
      metricsToken: null,
    })
  })

  it('take a port, and a token with it', () => {
    expect(loadConfig({ METRICS_PORT: '9464' })).toMatchObject({
      metricsPort: 9464,
      metricsToken: null,
    })
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: ` ${TOKEN} ` })).toMatchObject({
      metricsPort: 9464,
      metricsToken: TOKEN,
    })
  })

  it.each([
    [{ METRICS_PORT: '0' }, 'METRICS_PORT must be an integer from 1 to 65535, got "0"'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT must be an integer from 1 to 65535, got "70000"'],
    [{ METRICS_PORT: 'nine' }, 'METRICS_PORT must be an integer from 1 to 65535, got "nine"'],
    [
      { METRICS_PORT: '8080', PORT: '8080' },
      'METRICS_PORT must differ from PORT, got 8080 for both',
    ],
    [
      { METRICS_PORT: '9464', METRICS_TOKEN: 'short' },
      'METRICS_TOKEN must be 16 to 256 printable characters without spaces',
    ],
    [
      { METRICS_PORT: '9464', METRICS_TOKEN: 'has a space in it here' },
      'METRICS_TOKEN must be 16 to 256 printable characters without spaces',
    ],
    [
      { METRICS_TOKEN: TOKEN },
      'METRICS_TOKEN is set but METRICS_PORT is not: set the port to serve /metrics',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })
})
