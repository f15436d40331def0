/**
 * The links list's actions: per row (edit, statistics, QR code, preview, disable or enable, delete
 * after a confirmation page, copy the short URL) and on the selected rows (the bulk form, which
 * the rows' checkboxes join through their `form` attribute, since forms cannot nest).
 */
import type { LinkRecord } from '../links/schema.js'
import { safeHref } from '../pages/safe-values.js'
import { CsrfField } from './components.js'

export function ShortLink(props: { link: LinkRecord }) {
  const { link } = props
  return (
    <span class="short-link">
      <a href={safeHref(link.short_url)}>{link.short_url}</a>
      {/* Shown by the dashboard script, which alone can copy. */}
      <button
        type="button"
        class="secondary-button copy"
        data-copy={link.short_url}
        aria-label={`Copy ${link.short_url}`}
        hidden
      >
        Copy
      </button>
    </span>
  )
}

export function SelectLink(props: { link: LinkRecord }) {
  return (
    <input
      type="checkbox"
      name="ids[]"
      value={String(props.link.id)}
      form="bulk"
      aria-label={`Select ${props.link.short_url}`}
    />
  )
}

/** Ticks every row of the page; shown by the dashboard script. */
export function SelectAll() {
  return <input type="checkbox" id="select-all" aria-label="Select all links on this page" hidden />
}

export function RowActions(props: { link: LinkRecord; csrf: string; back: string }) {
  const { link } = props
  const disabled = link.disabled === 1
  return (
    <div class="row-actions">
      <a href={`/dashboard/links/${link.id}`} aria-label={`Edit ${link.short_url}`}>
        Edit
      </a>
      <a href={`/dashboard/links/${link.id}/stats`} aria-label={`Statistics of ${link.short_url}`}>
        Statistics
      </a>
      <a href={`/dashboard/links/${link.id}/qr`} aria-label={`QR code of ${link.short_url}`}>
        QR code
      </a>
      <a href={safeHref(`${link.short_url}+`)} aria-label={`Preview ${link.short_url}`}>
        Preview
      </a>
      <form method="post" action={`/dashboard/links/${link.id}/${disabled ? 'enable' : 'disable'}`}>
        <CsrfField token={props.csrf} />
        <input type="hidden" name="_back" value={props.back} />
        <button type="submit" aria-label={`${disabled ? 'Enable' : 'Disable'} ${link.short_url}`}>
          {disabled ? 'Enable' : 'Disable'}
        </button>
      </form>
      <a href={`/dashboard/links/${link.id}/delete`} aria-label={`Delete ${link.short_url}`}>
        Delete
      </a>
    </div>
  )
}

export function BulkBar(props: {
  csrf: string
  back: string
  spaces: { id: number; name: string }[]
}) {
  return (
    <form id="bulk" class="panel bulk" method="post" action="/dashboard/links/bulk">
      <CsrfField token={props.csrf} />
      <input type="hidden" name="_back" value={props.back} />
      <div class="filter">
        <label for="bulk-action">With the selected links</label>
        <select id="bulk-action" name="action">
          <option value="disable">Disable</option>
          <option value="enable">Enable</option>
          <option value="move">Move to the space</option>
          <option value="delete">Delete…</option>
        </select>
      </div>
      <div class="filter">
        <label for="bulk-space">Space (to move)</label>
        <select id="bulk-space" name="space_id">
          <option value="">No space</option>
          {props.spaces.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div class="filter">
        <button type="submit" id="bulk-apply">
          Apply
        </button>
      </div>
    </form>
  )
}

export type Done = 'disabled' | 'enabled' | 'moved' | 'deleted'

/**
 * What the list says after a row or bulk action (`done=disabled-3` in its address): a sentence
 * of our own, never the address's text.
 */
export function doneNotice(done: unknown): string | null {
  const found =
    typeof done === 'string' ? /^(disabled|enabled|moved|deleted)-(\d{1,3})$/.exec(done) : null
  if (!found) return null
  const count = Number(found[2])
  const what = count === 1 ? '1 link was' : `${count} links were`
  return found[1] === 'moved' ? `${what} moved.` : `${what} ${found[1]}.`
}
