/**
 * The links list's bulk actions "Add the tag" and "Remove the tag" over HTTP, without
 * JavaScript: the user's own selected links change in one go through the link service (one
 * link.updated per link changed, carrying its tags), others' links are ignored, a bad or unknown
 * name and a link that would get a 26th tag are refused with a 422 page that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/types.js'
import { createTestApp, KEY_B, type TestApp } from '../support/app.js'
import { csrfOf, FormClient, formPairs } from '../support/dashboard.js'
import { API, createLink, expectStatus, show, type Rec } from './helpers.js'

let t: TestApp
let alice: FormClient
let csrf: string
let bobsLink: Rec
beforeAll(async () => {
  t = await createTestApp()
  await t.services.accounts.setPassword(t.userA, 'alice password')
  alice = new FormClient(t.app)
  expectStatus(await alice.signIn('a@example.com', 'alice password'), 303)
  bobsLink = await createLink(t, { alias: 'bobs-tagged', 'tags[]': 'Bob' }, KEY_B)
  csrf = csrfOf((await alice.get('/dashboard/links')).body)
})
afterAll(() => t.close())

const bulk = (pairs: [string, string | number][]) =>
  alice.post('/dashboard/links/bulk', formPairs([['_csrf', csrf], ...pairs]))
const selecting = (ids: number[]) => ids.map((id) => ['ids[]', id] as [string, number])
const tagsOf = async (id: number, key?: string) => (await show(t, `links/${id}`, key)).tags

/** The events committed while `work` runs. */
async function eventsOf(work: () => Promise<unknown>): Promise<DomainEvent[]> {
  const events: DomainEvent[] = []
  const stop = t.services.events.afterCommit((e) => events.push(e))
  try {
    await work()
  } finally {
    stop()
  }
  return events
}

async function tagNamed(name: string): Promise<Rec[]> {
  const found = await t.call('GET', `${API}/tags?search=${encodeURIComponent(name)}`)
  return (found.json() as { data: Rec[] }).data
}

describe('bulk "Add the tag"', () => {
  it('adds the tag to the selected links that lack it, keeping the stored spelling', async () => {
    const one = await createLink(t, { alias: 'bulk-tag-one', 'tags[]': 'Keep' })
    const two = await createLink(t, { alias: 'bulk-tag-two', 'tags[]': 'summer' })
    let res!: Awaited<ReturnType<typeof bulk>>
    const events = await eventsOf(async () => {
      res = await bulk([
        ['action', 'add_tag'],
        ['tag', '  SUMMER '],
        ['_back', '/dashboard/links?tag=Keep'],
        ...selecting([one.id, two.id, bobsLink.id]),
      ])
    })
    expectStatus(res, 303)
    expect(res.headers.location).toBe('/dashboard/links?tag=Keep&done=tagged-1')
    expect(await tagsOf(one.id)).toEqual(['Keep', 'summer'])
    expect(await tagsOf(two.id)).toEqual(['summer'])
    expect(await tagsOf(bobsLink.id, KEY_B)).toEqual(['Bob'])
    // One link.updated, for the one link changed, carrying its tags (the webhooks' payload).
    expect(events.map((e) => `${e.type} ${e.links?.[0]?.id}`)).toEqual([`link.updated ${one.id}`])
    expect(events[0]!.data).toMatchObject({
      link: { id: one.id, tags: ['Keep', 'summer'] },
      changed: ['tags'],
    })
    const list = await alice.get(res.headers.location!)
    expectStatus(list, 200)
    expect(list.body).toContain(
      '<p class="notice" role="status" id="links-notice">The tag was added to 1 link.</p>',
    )
  })

  it('makes a new tag once, for every selected link, and says when nothing changed', async () => {
    const ids = [
      (await createLink(t, { alias: 'fresh-one' })).id,
      (await createLink(t, { alias: 'fresh-two', 'tags[]': 'Other' })).id,
    ]
    const events = await eventsOf(async () => {
      const res = await bulk([['action', 'add_tag'], ['tag', 'Fresh'], ...selecting(ids)])
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/dashboard/links?done=tagged-2')
    })
    expect(events.map((e) => e.type)).toEqual(['tag.created', 'link.updated', 'link.updated'])
    expect(await tagsOf(ids[0]!)).toEqual(['Fresh'])
    expect(await tagsOf(ids[1]!)).toEqual(['Fresh', 'Other'])
    expect(await tagNamed('Fresh')).toMatchObject([{ name: 'Fresh', links: 2 }])

    const again = await bulk([['action', 'add_tag'], ['tag', 'fresh'], ...selecting(ids)])
    expectStatus(again, 303)
    expect(again.headers.location).toBe('/dashboard/links?done=tagged-0')
    expect((await alice.get(again.headers.location!)).body).toContain(
      'The selected links had that tag already, so nothing changed.',
    )
  })

  it('refuses a bad name with a 422 page saying what is wrong, changing nothing', async () => {
    const link = await createLink(t, { alias: 'bad-bulk-name', 'tags[]': 'Kept' })
    const cases: [string, string][] = [
      ['   ', 'Fill in “Tag”.'],
      ['x'.repeat(51), '“Tag” is too long: at most 50 characters.'],
      ['a,b', '“Tag” must not contain a comma.'],
    ]
    for (const [name, message] of cases) {
      const res = await bulk([['action', 'add_tag'], ['tag', name], ...selecting([link.id])])
      expectStatus(res, 422)
      expect(res.body).toContain(`<p class="error" role="alert" id="bulk-problem">${message}</p>`)
    }
    const missing = await bulk([['action', 'add_tag'], ...selecting([link.id])])
    expectStatus(missing, 422)
    expect(missing.body).toContain('Fill in “Tag”.')
    expect(await tagsOf(link.id)).toEqual(['Kept'])
    expect(await tagNamed('a,b')).toEqual([])
  })

  it('refuses to give a link a 26th tag: the 422 names it and no link changes', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `full-${String(i).padStart(2, '0')}`)
    const full = await createLink(t, {
      alias: 'full-of-tags',
      ...Object.fromEntries(names.map((n, i) => [`tags[${i}]`, n])),
    })
    const light = await createLink(t, { alias: 'light-tags' })
    const res = await bulk([
      ['action', 'add_tag'],
      ['tag', 'one-too-many'],
      ...selecting([light.id, full.id]),
    ])
    expectStatus(res, 422)
    expect(res.body).toContain(
      'A link has at most 25 tags, and these have 25 already: http://short.test/full-of-tags.',
    )
    expect(await tagsOf(full.id)).toEqual(names)
    expect(await tagsOf(light.id)).toEqual([])
    expect(await tagNamed('one-too-many')).toEqual([])
    // A tag it has already is no 26th: the others get it.
    const same = await bulk([
      ['action', 'add_tag'],
      ['tag', 'FULL-00'],
      ...selecting([light.id, full.id]),
    ])
    expectStatus(same, 303)
    expect(same.headers.location).toBe('/dashboard/links?done=tagged-1')
    expect(await tagsOf(light.id)).toEqual(['full-00'])
  })
})

describe('bulk "Remove the tag"', () => {
  it('takes the tag off the selected links that have it, whatever the case typed', async () => {
    const ids = [
      (await createLink(t, { alias: 'drop-one', 'tags[0]': 'Drop', 'tags[1]': 'Stay' })).id,
      (await createLink(t, { alias: 'drop-two', 'tags[]': 'Drop' })).id,
      (await createLink(t, { alias: 'drop-none', 'tags[]': 'Stay' })).id,
    ]
    const events = await eventsOf(async () => {
      const res = await bulk([
        ['action', 'remove_tag'],
        ['tag', ' drop '],
        ...selecting([...ids, bobsLink.id]),
      ])
      expectStatus(res, 303)
      expect(res.headers.location).toBe('/dashboard/links?done=untagged-2')
      expect((await alice.get(res.headers.location!)).body).toContain(
        'The tag was removed from 2 links.',
      )
    })
    expect(events.map((e) => `${e.type} ${e.links?.[0]?.id}`)).toEqual([
      `link.updated ${ids[0]}`,
      `link.updated ${ids[1]}`,
    ])
    expect(events[1]!.data).toMatchObject({ link: { tags: [] }, changed: ['tags'] })
    expect(await tagsOf(ids[0]!)).toEqual(['Stay'])
    expect(await tagsOf(ids[1]!)).toEqual([])
    expect(await tagsOf(ids[2]!)).toEqual(['Stay'])
    // The tag itself stays, with no links (the Tags screen deletes tags).
    expect(await tagNamed('Drop')).toMatchObject([{ name: 'Drop', links: 0 }])

    const none = await bulk([['action', 'remove_tag'], ['tag', 'Drop'], ...selecting(ids)])
    expectStatus(none, 303)
    expect(none.headers.location).toBe('/dashboard/links?done=untagged-0')
    expect((await alice.get(none.headers.location!)).body).toContain(
      'None of the selected links had that tag, so nothing changed.',
    )
  })

  it('an unknown name (or another user’s tag) is a 422 page that says so', async () => {
    const link = await createLink(t, { alias: 'keep-bob-out', 'tags[]': 'Mine' })
    for (const name of ['No <such> tag', 'bob']) {
      const res = await bulk([['action', 'remove_tag'], ['tag', name], ...selecting([link.id])])
      expectStatus(res, 422)
      // Escaped: the page's text shows the name, never markup.
      expect(res.body).toContain(`You have no tag named “${name.replace('<', '&lt;')}”.`)
    }
    expect(await tagsOf(link.id)).toEqual(['Mine'])
    expect(await tagsOf(bobsLink.id, KEY_B)).toEqual(['Bob'])
  })
})

describe('the bulk tag actions', () => {
  it('need the CSRF token: without it, or with a wrong one, a 403 page and nothing changes', async () => {
    const link = await createLink(t, { alias: 'csrf-tags', 'tags[]': 'Guarded' })
    for (const [action, name] of [
      ['add_tag', 'Sneaky'],
      ['remove_tag', 'Guarded'],
    ]) {
      const body = formPairs([
        ['action', action!],
        ['tag', name!],
        ['ids[]', link.id],
      ])
      for (const token of [null, 'wrong-token']) {
        const res = await alice.post(
          '/dashboard/links/bulk',
          token === null ? body : `${body}&_csrf=${token}`,
        )
        expectStatus(res, 403)
        expect(res.body).toContain('Nothing was changed.')
      }
    }
    expect(await tagsOf(link.id)).toEqual(['Guarded'])
    expect(await tagNamed('Sneaky')).toEqual([])
  })

  it('are offered in the bulk bar, with the user’s tags suggested in its tag field', async () => {
    await createLink(t, { alias: 'suggested', 'tags[]': 'Suggested & Co' })
    const list = await alice.get('/dashboard/links')
    expectStatus(list, 200)
    expect(list.body).toContain('<option value="add_tag">Add the tag</option>')
    expect(list.body).toContain('<option value="remove_tag">Remove the tag</option>')
    expect(list.body).toContain(
      '<input id="bulk-tag" type="text" name="tag" list="bulk-tag-names" autocomplete="off" maxlength="50"/>',
    )
    expect(list.body).toMatch(
      /<datalist id="bulk-tag-names">(<option value="[^"]*"><\/option>)*<option value="Suggested &amp; Co"><\/option>/,
    )
    expect(list.body).not.toContain('value="Bob"')
  })
})
