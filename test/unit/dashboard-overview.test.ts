import { describe, expect, it } from 'vitest'
import { overviewPage } from '../../src/dashboard/overview-page.js'

const viewer = { name: 'Ann', email: 'ann@example.com', admin: false, csrf: 'token' }

function totalsHtml(clicks: number): string {
  const { html } = overviewPage(viewer, {
    totals: { links: 1_000_000, clicks, pixels: 0, spaces: 7 },
    period: { from: '2026-10-27', to: '2026-11-25' },
    days: [],
    topLinks: [],
    latestLinks: [],
  })
  return /<ul class="totals"[^]*?<\/ul>/.exec(html)![0]
}

describe('the overview totals', () => {
  it('may wrap a large total after its group commas only, never inside a group', () => {
    const html = totalsHtml(49_999_500_000)
    expect(html).toContain('<strong>49,<wbr/>999,<wbr/>500,<wbr/>000</strong> clicks')
    expect(html).toContain('<strong>1,<wbr/>000,<wbr/>000</strong> links')
  })

  it('writes a total under a thousand as it is', () => {
    const html = totalsHtml(999)
    expect(html).toContain('<strong>999</strong> clicks')
    expect(html).toContain('<strong>7</strong> spaces')
  })
})
