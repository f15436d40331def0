/**
 * The link form's pure rules: what a sent form's fields become (values kept as typed, lists
 * from brackets or index objects), the API input it stands for on create and on edit (fields
 * not sent are left out, secrets kept unless removed, an unchanged title not sent), and the
 * row buttons.
 */
import { describe, expect, it } from 'vitest'
import { apiInput, applyRowAction, formValues, rowAction } from '../../src/dashboard/link-form.js'

describe('link form values', () => {
  it('keeps text as sent and reads lists given as arrays or index objects', () => {
    const values = formValues({
      url: 'https://example.com/',
      alias: ' spaced ',
      pixel_ids: ['', '3', '7'],
      country: { 1: { key: 'FR', value: 'https://fr/' }, 0: { key: 'DE' } },
      rotation: [{ value: 'https://r/' }, 'junk'],
      disabled: ['0', '1'],
    })
    expect(values.alias).toBe(' spaced ')
    expect(values.pixel_ids).toEqual(['3', '7'])
    expect(values.country).toEqual([
      { key: 'DE', value: '' },
      { key: 'FR', value: 'https://fr/' },
    ])
    expect(values.rotation).toEqual([
      { key: '', value: 'https://r/', weight: '' },
      { key: '', value: '', weight: '' },
    ])
    // A list sent for a single field is no value (the API would say so; the form never sends it).
    expect(values.disabled).toBe('')
  })

  it.each([
    ['add_country', { add: 'country' }],
    ['add_rotation', { add: 'rotation' }],
    ['remove_language_12', { remove: 'language', index: 12 }],
    ['remove_country', null],
    ['add_country_1', null],
    ['remove_pixels_1', null],
    ['', null],
  ])('the row button %j is %j', (value, expected) => {
    expect(rowAction({ _action: value })).toEqual(expected)
  })

  it('takes the first of a row button value sent twice', () => {
    expect(rowAction({ _action: ['add_platform', 'add_platform'] })).toEqual({ add: 'platform' })
  })

  it('adds an empty row at the end and removes the pressed one', () => {
    const values = formValues({
      country: [
        { key: 'DE', value: 'a' },
        { key: 'FR', value: 'b' },
      ],
    })
    expect(applyRowAction(values, { add: 'country' }).country).toEqual([
      { key: 'DE', value: 'a' },
      { key: 'FR', value: 'b' },
      { key: '', value: '' },
    ])
    expect(applyRowAction(values, { remove: 'country', index: 0 }).country).toEqual([
      { key: 'FR', value: 'b' },
    ])
  })
})

describe('the API input of a form', () => {
  const sent = {
    url: 'https://example.com/',
    domain_id: '1',
    alias: '',
    title: 'Fetched',
    password: '',
    privacy_password: '',
    pixel_ids: [''],
    country: [{ key: 'DE', value: 'https://de/' }],
    rotation: [{ value: '' }],
  }

  it('create: every field sent, as text; an empty title is left to the fetch', () => {
    expect(apiInput(formValues({ ...sent, title: '' }), { edit: false })).toEqual({
      url: 'https://example.com/',
      domain_id: '1',
      alias: '',
      password: '',
      privacy_password: '',
      pixel_ids: [],
      country: [{ key: 'DE', value: 'https://de/' }],
      rotation: [{ value: '' }],
    })
  })

  it('edit: no domain, empty secrets kept, an unchanged title not sent', () => {
    expect(apiInput(formValues(sent), { edit: true, title: 'Fetched' })).toEqual({
      url: 'https://example.com/',
      alias: '',
      pixel_ids: [],
      country: [{ key: 'DE', value: 'https://de/' }],
      rotation: [{ value: '' }],
    })
    expect(apiInput(formValues(sent), { edit: true, title: 'Other' })).toMatchObject({
      title: 'Fetched',
    })
  })

  it('edit: a typed secret replaces the stored one, a ticked box removes it', () => {
    const input = apiInput(
      formValues({ ...sent, password: 'new', privacy_password: 'x', _clear_privacy_password: '1' }),
      { edit: true, title: null },
    )
    expect(input.password).toBe('new')
    expect(input.privacy_password).toBe('')
  })
})
