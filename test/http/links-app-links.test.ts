/** Links: app links (APP_URL_SCHEMES) in every destination field, accepted and refused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../support/app.js'
import { API, expectStatus, validation } from './helpers.js'

let t: TestApp
let only: TestApp
beforeAll(async () => {
  t = await createTestApp()
  only = await createTestApp({ APP_URL_SCHEMES: 'slack' })
})
afterAll(async () => {
  await t.close()
  await only.close()
})

const MAIN = 'https://example.com/main'

/** Each destination field: the form that sets it, and where the record shows it. */
const FIELDS = [
  {
    field: 'url',
    form: (v: string) => ({ url: v }),
    shown: (d: Record<string, unknown>) => d.url,
  },
  {
    field: 'expiration_url',
    form: (v: string) => ({ url: MAIN, expiration_url: v }),
    shown: (d: Record<string, unknown>) => d.expiration_url,
  },
  ...(['country', 'platform', 'language'] as const).map((list) => ({
    field: `${list}.0.value`,
    form: (v: string) => ({
      url: MAIN,
      [`${list}[0][key]`]: { country: 'US', platform: 'Android', language: 'fr' }[list],
      [`${list}[0][value]`]: v,
    }),
    shown: (d: Record<string, unknown>) =>
      (d[`${list}_target`] as { value: string }[] | null)?.[0]?.value,
  })),
  {
    field: 'rotation.0.value',
    form: (v: string) => ({ url: MAIN, 'rotation[0][value]': v }),
    shown: (d: Record<string, unknown>) =>
      (d.rotation_target as { value: string }[] | null)?.[0]?.value,
  },
]

const ACCEPTED = [
  ['mailto:team@example.com', 'mailto:team@example.com'],
  ['TEL:+15551234567', 'tel:+15551234567'],
  ['intent://scan/#Intent;scheme=zxing;end', 'intent://scan/#Intent;scheme=zxing;end'],
  ['itms-apps://apps.apple.com/app/id1', 'itms-apps://apps.apple.com/app/id1'],
] as const

const REFUSED = [
  'javascript:alert(1)',
  'data:text/html,hi',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  'blob:https://example.com/x',
  'about:blank',
  'filesystem:https://example.com/x',
  'view-source:https://example.com/',
  'slack://open',
  'mailto:',
]

const create = (app: TestApp, form: Record<string, string>) =>
  app.call('POST', `${API}/links`, { form: { domain_id: app.defaultDomainId, ...form } })

describe.each(FIELDS)('$field', ({ field, form, shown }) => {
  it.each(ACCEPTED)('accepts %s, stored as %s', async (value, stored) => {
    const res = await create(t, form(value))
    expectStatus(res, 201)
    expect(shown(res.json().data)).toBe(stored)
  })

  it.each(REFUSED)('refuses %s with 422 on the field', async (value) => {
    const res = await create(t, form(value))
    expectStatus(res, 422)
    const name = field.replace(/_/g, ' ')
    expect(res.json()).toEqual(validation({ [field]: [`The ${name} field must be a valid URL.`] }))
  })

  it('follows APP_URL_SCHEMES: slack only', async () => {
    expectStatus(await create(only, form('slack://open?team=T1')), 201)
    const refused = await create(only, form('mailto:team@example.com'))
    expectStatus(refused, 422)
    expect(Object.keys(refused.json().message)).toEqual([field])
  })
})

it('refuses an app link on update too, and takes one', async () => {
  const res = await create(t, { url: MAIN })
  const id = res.json().data.id as number
  const bad = await t.call('PATCH', `${API}/links/${id}`, { form: { url: 'javascript:alert(1)' } })
  expectStatus(bad, 422)
  expect(bad.json()).toEqual(validation({ url: ['The url field must be a valid URL.'] }))
  const good = await t.call('PATCH', `${API}/links/${id}`, {
    json: { url: 'spotify:track:1', expiration_url: 'tel:+1555' },
  })
  expectStatus(good, 200)
  expect(good.json().data).toMatchObject({ url: 'spotify:track:1', expiration_url: 'tel:+1555' })
})
