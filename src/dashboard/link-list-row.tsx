/**
 * One row of the links list, on one line at desktop widths: the short link without its scheme
 * and a Copy button, the destination's host first,
 * then its title (or its path), the status as a coloured badge with its word, small badges for what the link carries
 * (password, expiry, targeting, rotation, pixels), the clicks, and the actions: Statistics in
 * sight, the rest in a `<details>` menu that opens without JavaScript.
 */
import type { LinkRecord } from '../links/schema.js'
import { safeHref } from '../pages/safe-values.js'
import { CsrfField } from './components.js'
import { DuplicateLink } from './link-duplicate.js'
import { SelectLink } from './link-row-actions.js'

const numbers = new Intl.NumberFormat('en-US')

export type LinkStatus = 'active' | 'expired' | 'disabled'

export function linkStatus(link: LinkRecord, now: number): LinkStatus {
  if (link.disabled) return 'disabled'
  if (link.ends_at !== null && Date.parse(link.ends_at) <= now) return 'expired'
  if (link.expiration_clicks && link.clicks >= link.expiration_clicks) return 'expired'
  return 'active'
}

const STATUS_WORDS: Record<LinkStatus, string> = {
  active: 'Active',
  expired: 'Expired',
  disabled: 'Disabled',
}

/** An address without its scheme (`short.test/abc`). */
export function withoutScheme(url: string): string {
  return url.replace(/^https?:\/\//i, '')
}

/** The host of a destination, and the rest of it after the host. */
export function hostFirst(url: string): { host: string; rest: string } {
  const bare = withoutScheme(url)
  const cut = bare.search(/[/?#]/)
  const host = cut === -1 ? bare : bare.slice(0, cut)
  const rest = cut === -1 ? '' : bare.slice(cut)
  return { host: host.replace(/^www\./i, ''), rest: rest === '/' ? '' : rest }
}

/** What the link carries beyond a plain redirect, as short words with a longer description. */
export function linkFeatures(link: LinkRecord): { id: string; word: string; title: string }[] {
  const features: { id: string; word: string; title: string }[] = []
  if (link.password)
    features.push({ id: 'password', word: 'Password', title: 'Asks for a password' })
  if (link.ends_at !== null || (link.expiration_clicks ?? 0) > 0)
    features.push({ id: 'expiry', word: 'Expiry', title: 'Expires at a date or after clicks' })
  const targets =
    (link.country_target?.length ?? 0) +
    (link.platform_target?.length ?? 0) +
    (link.language_target?.length ?? 0)
  if (targets > 0)
    features.push({ id: 'targeting', word: 'Targeting', title: `${targets} targeting rules` })
  if ((link.rotation_target?.length ?? 0) > 0)
    features.push({ id: 'rotation', word: 'Rotation', title: 'Rotates between destinations' })
  if (link.pixels.length > 0)
    features.push({
      id: 'pixels',
      word: `Pixels ${link.pixels.length}`,
      title: `Pixels: ${link.pixels.map((p) => p.name).join(', ')}`,
    })
  return features
}

export function LinkRow(props: { link: LinkRecord; now: number; csrf: string; back: string }) {
  const { link } = props
  const status = linkStatus(link, props.now)
  const short = withoutScheme(link.short_url)
  const destination = hostFirst(link.url)
  const disabled = link.disabled === 1
  return (
    <tr id={`link-${link.id}`}>
      <td class="select">
        <SelectLink link={link} />
      </td>
      <td class="short-cell">
        <span class="short-link">
          <a href={safeHref(link.short_url)} class="short-text">
            {short}
          </a>
          {/* Shown by the dashboard script, which alone can copy. */}
          <button
            type="button"
            class="secondary-button copy"
            data-copy={link.short_url}
            aria-label={`Copy ${short}`}
            hidden
          >
            Copy
          </button>
        </span>
      </td>
      <td class="destination-cell" data-label="To">
        <a class="destination" href={safeHref(link.url)} rel="noreferrer" title={link.url}>
          <span class="host">{destination.host}</span>
          {link.title ? (
            <span class="link-title">{link.title}</span>
          ) : (
            <span class="rest">{destination.rest}</span>
          )}
        </a>
      </td>
      <td class="status-cell" data-label="Status">
        <span class={`badge status-${status}`}>{STATUS_WORDS[status]}</span>
        {linkFeatures(link).map((f) => (
          <span key={f.id} class={`badge feature feature-${f.id}`} title={f.title}>
            {f.word}
          </span>
        ))}
        {link.tags.map((name) => (
          <a
            key={name}
            class="badge tag"
            href={`/dashboard/links?${new URLSearchParams({ tag: name }).toString()}`}
            title={`Links tagged ${name}`}
          >
            {name}
          </a>
        ))}
      </td>
      <td class="num" data-label="Clicks">
        {numbers.format(link.clicks)}
      </td>
      <td class="nowrap created-cell" data-label="Created">
        {link.created_at.slice(0, 10)}
      </td>
      <td class="actions-cell">
        <div class="row-actions">
          <a
            href={`/dashboard/links/${link.id}/stats`}
            aria-label={`Statistics of ${short}`}
            class="stats-link"
          >
            Statistics
          </a>
          <details class="row-menu">
            <summary aria-label={`More actions for ${short}`}>More</summary>
            <div class="menu">
              <a href={`/dashboard/links/${link.id}`} aria-label={`Edit ${short}`}>
                Edit
              </a>
              <a href={`/dashboard/links/${link.id}/qr`} aria-label={`QR code of ${short}`}>
                QR code
              </a>
              <a href={safeHref(`${link.short_url}+`)} aria-label={`Preview ${short}`}>
                Preview
              </a>
              <DuplicateLink id={link.id} csrf={props.csrf} label={`Duplicate ${short}`} />
              <form
                method="post"
                action={`/dashboard/links/${link.id}/${disabled ? 'enable' : 'disable'}`}
              >
                <CsrfField token={props.csrf} />
                <input type="hidden" name="_back" value={props.back} />
                <button type="submit" aria-label={`${disabled ? 'Enable' : 'Disable'} ${short}`}>
                  {disabled ? 'Enable' : 'Disable'}
                </button>
              </form>
              <a href={`/dashboard/links/${link.id}/delete`} aria-label={`Delete ${short}`}>
                Delete
              </a>
            </div>
          </details>
        </div>
      </td>
    </tr>
  )
}
