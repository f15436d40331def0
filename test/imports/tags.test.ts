import { describe, expect, it } from 'vitest'
import { MAX_TAGS, type SourceRow } from '../../src/imports/row.js'
import { readShlink } from '../../src/imports/sources/apis.js'
import { FILE_SOURCES, type FileSource } from '../../src/imports/sources/index.js'

async function fileRows(source: FileSource, text: string): Promise<SourceRow[]> {
  async function* bytes() {
    yield Buffer.from(text)
  }
  const rows: SourceRow[] = []
  for await (const row of FILE_SOURCES[source](bytes())) rows.push(row)
  return rows
}

const tagsOf = (rows: SourceRow[]) => rows.map((r) => ({ tags: r.tags, notes: r.notes }))

describe('tags are read from every source that has them', () => {
  it("shlink API: each short URL's tags list", async () => {
    // The shape of Shlink 4's GET /rest/v3/short-urls.
    const item = {
      shortCode: '12C18',
      shortUrl: 'https://s.test/12C18',
      longUrl: 'https://store.steampowered.com',
      deviceLongUrls: { android: null, ios: null, desktop: null },
      dateCreated: '2016-08-21T20:34:16+02:00',
      visitsSummary: { total: 328, nonBots: 328, bots: 0 },
      tags: ['games', ' tech ', 'Tech', ''],
      meta: { validSince: null, validUntil: null, maxVisits: null },
      domain: null,
      title: 'Welcome to Steam',
      crawlable: false,
      forwardQuery: true,
      hasRedirectRules: false,
    }
    const fetch = async () => ({
      shortUrls: {
        data: [item, { ...item, shortCode: 'none', tags: [] }, { ...item, shortCode: 'old' }],
        pagination: {
          currentPage: 1,
          pagesCount: 1,
          itemsPerPage: 10,
          itemsInCurrentPage: 3,
          totalItems: 3,
        },
      },
    })
    const rows: SourceRow[] = []
    for await (const row of readShlink({ baseUrl: 'https://s.test', key: 'k', fetch }))
      rows.push(row)
    expect(tagsOf(rows)).toEqual([
      { tags: ['games', 'tech'], notes: [] },
      { tags: [], notes: [] },
      { tags: ['games', 'tech'], notes: [] },
    ])
  })

  it("shlink-csv: names joined by | as Shlink's web client writes them", async () => {
    const csv = [
      'createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits',
      '2023-05-01T10:20:30+02:00,,abc12,https://s.test/abc12,https://example.com/one,One,news|tech|News| |,17',
      '2023-06-01T00:00:00+00:00,,xyz,https://s.test/xyz,https://example.com/two,,,3',
      '2023-06-01T00:00:00+00:00,,q,https://s.test/q,https://example.com/q,"Q, quoted","a b|c,d",3',
    ].join('\r\n')
    expect(tagsOf(await fileRows('shlink-csv', csv))).toEqual([
      { tags: ['news', 'tech'], notes: [] },
      { tags: [], notes: [] },
      { tags: ['a b', 'c,d'], notes: [] },
    ])
  })

  it("bitly: the v4 bitlinks list's tags, and a Tags column of names joined by commas", async () => {
    // The shape of GET /v4/groups/{guid}/bitlinks.
    const json = JSON.stringify({
      links: [
        {
          created_at: '2020-02-01T10:00:00+0000',
          id: 'bit.ly/3xYzAbc',
          link: 'https://bit.ly/3xYzAbc',
          custom_bitlinks: [],
          long_url: 'https://github.com/',
          title: 'GitHub',
          archived: false,
          created_by: 'someone',
          client_id: 'a1b2',
          tags: ['foo', 'bar', 'FOO'],
          launchpad_ids: [],
          qr_code_ids: [],
          deeplinks: [],
          campaign_ids: [],
          is_deleted: false,
          references: { group: 'https://api-ssl.bitly.com/v4/groups/Bk1' },
        },
        { id: 'bit.ly/none', link: 'https://bit.ly/none', long_url: 'https://example.com/' },
        {
          id: 'bit.ly/odd',
          link: 'https://bit.ly/odd',
          long_url: 'https://example.com/',
          tags: 'x',
        },
      ],
      pagination: { prev: '', next: '', size: 50, page: 1, search_after: '' },
    })
    expect(tagsOf(await fileRows('bitly', json))).toEqual([
      { tags: ['foo', 'bar'], notes: [] },
      { tags: [], notes: [] },
      { tags: [], notes: [] },
    ])
    const csv = [
      'Bitlink,Long URL,Title,Created,Clicks,Tags',
      'bit.ly/3abcDEF,https://example.com/1,One,2022-11-05 14:00:00,120,"spring, sale ,Sale"',
      'bit.ly/plain,https://example.com/2,Two,2022-11-05 14:00:00,1,',
    ].join('\n')
    expect(tagsOf(await fileRows('bitly', csv))).toEqual([
      { tags: ['spring', 'sale'], notes: [] },
      { tags: [], notes: [] },
    ])
  })

  it("dub: a link's tags objects (their names), else tagNames, and the CSV export's Tags column", async () => {
    // The shape of Dub's link object (GET /links).
    const link = {
      id: 'link_1JK4Y0ZKZP5E3B1W3QZ6M2C8RS',
      domain: 'dub.sh',
      key: 'launch',
      url: 'https://example.com/launch',
      trackConversion: false,
      archived: false,
      expiresAt: null,
      password: null,
      proxy: false,
      title: null,
      tagId: 'tag_1',
      tags: [
        { id: 'tag_1', name: 'Marketing', color: 'blue' },
        { id: 'tag_2', name: 'Q3 launch', color: 'green' },
      ],
      folderId: null,
      webhookIds: [],
      comments: null,
      shortLink: 'https://dub.sh/launch',
      qrCode: 'https://api.dub.co/qr?url=https://dub.sh/launch?qr=1',
      utm_source: null,
      clicks: 88,
      createdAt: '2024-02-10T09:00:00.000Z',
      updatedAt: '2024-02-10T09:00:00.000Z',
    }
    const json = JSON.stringify([
      link,
      { ...link, id: 'link_2', key: 'names', tags: [], tagNames: ['alpha', 'Alpha', 'beta'] },
      { ...link, id: 'link_3', key: 'none', tags: null },
    ])
    expect(tagsOf(await fileRows('dub', json))).toEqual([
      { tags: ['Marketing', 'Q3 launch'], notes: [] },
      { tags: ['alpha', 'beta'], notes: [] },
      { tags: [], notes: [] },
    ])
    const csv = [
      'Link ID,Short link,Destination URL,Title,Tags,Clicks,Created at,Archived',
      'link_01HX,https://dub.sh/launch,https://example.com/launch,Launch,"Marketing, Q3 launch",88,2024-02-10T09:00:00.000Z,false',
    ].join('\n')
    expect(tagsOf(await fileRows('dub', csv))).toEqual([
      { tags: ['Marketing', 'Q3 launch'], notes: [] },
    ])
  })

  it(`keeps the first ${MAX_TAGS} tags and says how many more were left out`, async () => {
    const names = Array.from({ length: 30 }, (_, i) => `t${i + 1}`)
    const csv = `createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n2023-05-01,,a,https://s.test/a,https://example.com/,,${names.join('|')},0\n`
    expect(tagsOf(await fileRows('shlink-csv', csv))).toEqual([
      {
        tags: names.slice(0, 25),
        notes: ['Only the first 25 tags were kept: 5 more left out.'],
      },
    ])
  })
})
