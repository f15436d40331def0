/** Links: weighted rotation through the API, as stored, shown and followed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, expectStatus, validation } from './helpers.js'

let t: TestApp
let n = 0
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const MAIN = 'https://example.com/main'

function post(form: Record<string, string | number>) {
  return t.call('POST', `${API}/links`, {
    form: { url: MAIN, domain_id: t.defaultDomainId, alias: `w${n++}`, ...form },
  })
}

describe('rotation weights', () => {
  it('stores and returns the weights on a weighted rotation, in the record', async () => {
    const res = await post({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/a',
      'rotation[0][weight]': 30,
      'rotation[1][value]': 'https://example.com/b',
      'rotation[1][weight]': '20',
    })
    expectStatus(res, 201)
    const body = res.json()
    expect(body.data.rotation_target).toEqual([
      { value: 'https://example.com/a', weight: 30 },
      { value: 'https://example.com/b', weight: 20 },
    ])
    expect(JSON.stringify(body.data.rotation_target)).toBe(
      '[{"value":"https://example.com/a","weight":30},{"value":"https://example.com/b","weight":20}]',
    )
    const shown = await t.call('GET', `${API}/links/${body.data.id}`)
    expect(shown.json().data.rotation_target).toEqual(body.data.rotation_target)
  })

  it('keeps the unweighted shape byte for byte', async () => {
    const res = await post({ target_type: 4, 'rotation[0][value]': 'https://example.com/a' })
    expectStatus(res, 201)
    expect(res.body).toContain('"rotation_target":[{"value":"https://example.com/a"}],')
  })

  it('takes JSON weights too', async () => {
    const res = await t.call('POST', `${API}/links`, {
      json: {
        url: MAIN,
        domain_id: t.defaultDomainId,
        target_type: 4,
        rotation: [{ value: 'https://example.com/a', weight: 100 }],
      },
    })
    expectStatus(res, 201)
    expect(res.json().data.rotation_target).toEqual([
      { value: 'https://example.com/a', weight: 100 },
    ])
  })

  it.each<{
    name: string
    form: Record<string, string | number>
    errors: Record<string, string[]>
  }>([
    {
      name: 'a weight over 100',
      form: { 'rotation[0][value]': 'https://example.com/a', 'rotation[0][weight]': 101 },
      errors: {
        'rotation.0.weight': ['The rotation.0.weight field must not be greater than 100.'],
      },
    },
    {
      name: 'a weight of 0',
      form: { 'rotation[0][value]': 'https://example.com/a', 'rotation[0][weight]': 0 },
      errors: { 'rotation.0.weight': ['The rotation.0.weight field must be at least 1.'] },
    },
    {
      name: 'a weight that is not an integer',
      form: { 'rotation[0][value]': 'https://example.com/a', 'rotation[0][weight]': '2.5' },
      errors: { 'rotation.0.weight': ['The rotation.0.weight field must be an integer.'] },
    },
    {
      name: 'weights on some entries only',
      form: {
        'rotation[0][value]': 'https://example.com/a',
        'rotation[0][weight]': 10,
        'rotation[1][value]': 'https://example.com/b',
      },
      errors: {
        'rotation.1.weight': [
          'The rotation.1.weight field is required when any rotation entry has a weight.',
        ],
      },
    },
    {
      name: 'a weight without a destination',
      form: { 'rotation[0][weight]': 10 },
      errors: { 'rotation.0.value': ['The rotation.0.value field is required.'] },
    },
    {
      name: 'weights adding up to more than 100',
      form: {
        'rotation[0][value]': 'https://example.com/a',
        'rotation[0][weight]': 70,
        'rotation[1][value]': 'https://example.com/b',
        'rotation[1][weight]': 31,
      },
      errors: {
        rotation: ['The rotation weights must add up to at most 100; they add up to 101.'],
      },
    },
  ])('refuses $name with 422 naming the field', async ({ form, errors }) => {
    const res = await post({ target_type: 4, ...form })
    expectStatus(res, 422)
    expect(res.json()).toEqual(validation(errors))
  })

  it('drops an entry with neither part, and an update replaces the weights', async () => {
    const res = await post({
      target_type: 4,
      'rotation[0][value]': 'https://example.com/a',
      'rotation[0][weight]': 40,
      'rotation[1][value]': '',
      'rotation[1][weight]': '',
    })
    expectStatus(res, 201)
    const id = res.json().data.id as number
    expect(res.json().data.rotation_target).toEqual([
      { value: 'https://example.com/a', weight: 40 },
    ])
    const plain = await t.call('PATCH', `${API}/links/${id}`, {
      form: { 'rotation[0][value]': 'https://example.com/c' },
    })
    expectStatus(plain, 200)
    expect(plain.json().data.rotation_target).toEqual([{ value: 'https://example.com/c' }])
  })
})
