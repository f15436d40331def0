/**
 * The response serializers the apps of one process share (`sharedSerializers` in
 * src/composition/app.ts): a schema object is compiled once for apps with the same shared
 * schemas and options, and again for apps whose shared schemas differ.
 */
import { describe, expect, it } from 'vitest'
import { sharedSerializers } from '../../src/composition/app.js'

type Route = Parameters<ReturnType<typeof sharedSerializers>>[0]

const response = {
  type: 'object',
  properties: { value: { $ref: 'shared-value#/definitions/value' } },
}
const route = { schema: response, method: 'GET', url: '/', httpStatus: '200' } as unknown as Route
const sharedAs = (type: string) => ({
  'shared-value': { $id: 'shared-value', definitions: { value: { type } } },
})

describe('shared response serializers', () => {
  it('compiles a schema once for apps with the same shared schemas', () => {
    const first = sharedSerializers(sharedAs('string'), undefined)(route)
    const second = sharedSerializers(sharedAs('string'), undefined)(route)
    expect(second).toBe(first)
    expect(first({ value: 5 })).toBe('{"value":"5"}')
  })

  it('compiles it again for apps whose shared schemas differ', () => {
    const asString = sharedSerializers(sharedAs('string'), undefined)(route)
    const asInteger = sharedSerializers(sharedAs('integer'), undefined)(route)
    expect(asInteger).not.toBe(asString)
    expect(asString({ value: 5 })).toBe('{"value":"5"}')
    expect(asInteger({ value: 5 })).toBe('{"value":5}')
  })
})
