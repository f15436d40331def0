/**
 * The links list's selection: a row's checkbox, "select all", and the form of the actions on the
 * selected rows (which the rows' checkboxes join through their `form` attribute, since forms
 * cannot nest); and what the list says after an action. The row's own actions are in
 * link-list-row.tsx.
 */
import type { LinkRecord } from '../links/schema.js'
import { MAX_TAG_NAME } from '../tags/names.js'
import { CsrfField, TagNames } from './components.js'

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

export function BulkBar(props: {
  csrf: string
  back: string
  spaces: { id: number; name: string }[]
  /** The user's tag names, suggested in the tag field. */
  tags: string[]
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
          <option value="add_tag">Add the tag</option>
          <option value="remove_tag">Remove the tag</option>
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
        <label for="bulk-tag">Tag (to add or remove)</label>
        <input
          id="bulk-tag"
          type="text"
          name="tag"
          list="bulk-tag-names"
          autocomplete="off"
          maxLength={MAX_TAG_NAME}
        />
        <TagNames id="bulk-tag-names" names={props.tags} />
      </div>
      <div class="filter">
        <button type="submit" id="bulk-apply">
          Apply
        </button>
      </div>
    </form>
  )
}

export type Done = 'disabled' | 'enabled' | 'moved' | 'deleted' | 'tagged' | 'untagged' | 'none'

/**
 * What the list says after a row or bulk action (`done=disabled-3` in its address): a sentence
 * of our own, never the address's text.
 */
export function doneNotice(done: unknown): string | null {
  const found =
    typeof done === 'string'
      ? /^(disabled|enabled|moved|deleted|tagged|untagged|none)-(\d{1,3})$/.exec(done)
      : null
  if (!found) return null
  if (found[1] === 'none')
    return 'No link was selected, so nothing changed. Tick the links first, then choose what to do with them.'
  const count = Number(found[2])
  const links = count === 1 ? '1 link' : `${count} links`
  if (found[1] === 'tagged') {
    return count === 0
      ? 'The selected links had that tag already, so nothing changed.'
      : `The tag was added to ${links}.`
  }
  if (found[1] === 'untagged') {
    return count === 0
      ? 'None of the selected links had that tag, so nothing changed.'
      : `The tag was removed from ${links}.`
  }
  return `${count === 1 ? '1 link was' : `${count} links were`} ${found[1]}.`
}
