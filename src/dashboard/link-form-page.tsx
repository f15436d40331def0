/**
 * The create and edit forms of a link: every field of the API under the API's names, each
 * API message shown next to its field (and all of them listed on top), and targeting lists
 * whose rows are added and removed by submit buttons that re-render the form without saving
 * (with htmx, only the targeting section is swapped).
 */
import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import type { LinkRecord } from '../links/schema.js'
import { PLATFORMS, type TargetList } from '../links/targeting-keys.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { COUNTRY_CODES, LANGUAGE_CODES } from '../shared/iso-codes.js'
import { CsrfField } from './components.js'
import type { LinkFormValues, TargetRow } from './link-form.js'
import { dashboardPage, type Viewer } from './shell.js'

export interface LinkChoices {
  domains: { id: number; name: string }[]
  spaces: { id: number; name: string }[]
  pixels: { id: number; name: string; type: string }[]
}

export interface LinkFormInput {
  values: LinkFormValues
  errors: Record<string, string[]>
  choices: LinkChoices
  timeZone: string
  /** Edit form: the stored link. */
  link?: LinkRecord
  notice?: string | null
}

type Options = readonly (readonly [string, string])[]

/** Codes the API accepts, named in English and sorted by name. */
function named(codes: readonly string[], type: 'region' | 'language'): Options {
  const names = new Intl.DisplayNames(['en'], { type, fallback: 'code' })
  const label = (code: string) => {
    const name = names.of(type === 'region' ? code.toUpperCase() : code) ?? code
    return name === code ? code : `${name} (${code})`
  }
  return codes
    .map((code) => [code, label(code)] as const)
    .sort((a, b) => a[1].localeCompare(b[1], 'en'))
}

const KEY_OPTIONS: Record<Exclude<TargetList, 'rotation'>, Options> = {
  country: named(COUNTRY_CODES, 'region'),
  platform: PLATFORMS.map((p) => [p, p] as const),
  language: named(LANGUAGE_CODES, 'language'),
}

const LISTS: { list: TargetList; title: string; key: string }[] = [
  { list: 'country', title: 'Countries', key: 'Country' },
  { list: 'platform', title: 'Platforms', key: 'Platform' },
  { list: 'language', title: 'Languages', key: 'Language' },
  { list: 'rotation', title: 'Rotation', key: '' },
]

const idOf = (name: string) => name.replace(/\]\[|\[|\]/g, '-').replace(/-$/, '')

/** The messages of a field, with the id that describes it. */
function Errors(props: { id: string; messages: string[] | undefined }) {
  if (!props.messages || props.messages.length === 0) return null
  return (
    <p class="field-error" id={`${props.id}-error`}>
      {props.messages.join(' ')}
    </p>
  )
}

function describedBy(id: string, messages: string[] | undefined, hint?: boolean) {
  const ids = [hint ? `${id}-hint` : '', messages?.length ? `${id}-error` : '']
  return ids.filter(Boolean).join(' ') || undefined
}

function Input(props: {
  name: string
  label: string
  value: string
  errors: Record<string, string[]>
  /** The API field the messages are under, when it differs from the form name. */
  field?: string
  type?: 'text' | 'password' | 'date' | 'time' | 'number'
  inputMode?: 'url' | 'numeric'
  hint?: ComponentChildren
  autocomplete?: string
  placeholder?: string
  autofocus?: boolean
}) {
  const id = idOf(props.name)
  const messages = props.errors[props.field ?? props.name]
  const common = {
    id,
    name: props.name,
    value: props.value,
    autocomplete: props.autocomplete,
    placeholder: props.placeholder,
    autofocus: props.autofocus,
    'aria-invalid': messages?.length ? ('true' as const) : undefined,
    'aria-describedby': describedBy(id, messages, props.hint !== undefined),
  }
  const type = props.type ?? 'text'
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {type === 'password' ? (
        <input type="password" {...common} />
      ) : type === 'date' ? (
        <input type="date" {...common} />
      ) : type === 'time' ? (
        <input type="time" {...common} />
      ) : type === 'number' ? (
        <input type="number" min={0} step={1} {...common} />
      ) : (
        <input type="text" inputMode={props.inputMode} {...common} />
      )}
      {props.hint !== undefined ? (
        <p class="muted small hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <Errors id={id} messages={messages} />
    </div>
  )
}

function Select(props: {
  name: string
  label: string
  value: string
  options: Options
  errors: Record<string, string[]>
  field?: string
  hint?: ComponentChildren
  autofocus?: boolean
}) {
  const id = idOf(props.name)
  const messages = props.errors[props.field ?? props.name]
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        autofocus={props.autofocus}
        aria-invalid={messages?.length ? 'true' : undefined}
        aria-describedby={describedBy(id, messages, props.hint !== undefined)}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
      {props.hint !== undefined ? (
        <p class="muted small hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <Errors id={id} messages={messages} />
    </div>
  )
}

function Checkbox(props: { name: string; value: string; label: string; checked: boolean }) {
  const id = idOf(`${props.name}-${props.value}`)
  return (
    <div class="check">
      <input
        type="checkbox"
        id={id}
        name={props.name}
        value={props.value}
        checked={props.checked}
      />
      <label for={id}>{props.label}</label>
    </div>
  )
}

/** With htmx, a row button swaps only the targeting section; without it, the page reloads. */
function rowButtonAttributes(action: string) {
  return {
    'hx-post': action,
    'hx-target': '#targeting',
    'hx-select': '#targeting',
    'hx-swap': 'outerHTML',
  }
}

function TargetRows(props: {
  list: TargetList
  title: string
  keyLabel: string
  rows: TargetRow[]
  errors: Record<string, string[]>
  action: string
  focus: { list: TargetList; row: number | 'add' } | null
}) {
  const { list } = props
  // At least one row, ready to fill (an empty row is no entry: the API drops it).
  const rows = props.rows.length > 0 ? props.rows : [{ key: '', value: '' }]
  return (
    <fieldset class="targets" id={`targets-${list}`}>
      <legend>{props.title}</legend>
      <Errors id={list} messages={props.errors[list]} />
      {rows.map((row, i) => {
        const focused = props.focus?.list === list && props.focus.row === i
        return (
          <div class={list === 'rotation' ? 'target-row values-only' : 'target-row'} key={i}>
            {list !== 'rotation' ? (
              <Select
                name={`${list}[${i}][key]`}
                field={`${list}.${i}.key`}
                label={`${props.keyLabel} ${i + 1}`}
                value={row.key}
                options={[['', '—'], ...KEY_OPTIONS[list]]}
                errors={props.errors}
                autofocus={focused || undefined}
              />
            ) : null}
            <Input
              name={`${list}[${i}][value]`}
              field={`${list}.${i}.value`}
              label={list === 'rotation' ? `Destination ${i + 1}` : 'Destination'}
              value={row.value}
              inputMode="url"
              placeholder="https://"
              errors={props.errors}
              autofocus={(focused && list === 'rotation') || undefined}
            />
            <button
              type="submit"
              class="secondary-button row-button"
              name="_action"
              value={`remove_${list}_${i}`}
              aria-label={`Remove ${props.title.toLowerCase()} row ${i + 1}`}
              {...rowButtonAttributes(props.action)}
            >
              Remove
            </button>
          </div>
        )
      })}
      <button
        type="submit"
        class="secondary-button"
        name="_action"
        value={`add_${list}`}
        autofocus={(props.focus?.list === list && props.focus.row === 'add') || undefined}
        {...rowButtonAttributes(props.action)}
      >
        Add {list === 'rotation' ? 'destination' : props.keyLabel.toLowerCase()}
      </button>
    </fieldset>
  )
}

/** The targeting section: the one part a row button's htmx request swaps. */
function Targeting(props: {
  values: LinkFormValues
  errors: Record<string, string[]>
  action: string
  focus: FocusHint
}) {
  const { values, errors, action } = props
  return (
    <section class="panel" id="targeting" aria-labelledby="targeting-heading">
      <h2 id="targeting-heading">Targeting</h2>
      <Select
        name="target_type"
        label="Send visitors by"
        value={values.target_type}
        options={[
          ['0', 'Nothing: always the destination URL'],
          ['1', 'Country'],
          ['2', 'Platform'],
          ['3', 'Language'],
          ['4', 'Rotation (in turn)'],
        ]}
        errors={errors}
        hint="Only the chosen list is used; the others are kept."
      />
      {LISTS.map(({ list, title, key }) => (
        <TargetRows
          key={list}
          list={list}
          title={title}
          keyLabel={key}
          rows={values[list]}
          errors={errors}
          action={action}
          focus={props.focus}
        />
      ))}
    </section>
  )
}

function LinkForm(props: LinkFormInput & { viewer: Viewer; focus: FocusHint }) {
  const { values, errors, choices, link } = props
  const action = link ? `/dashboard/links/${link.id}` : '/dashboard/links/new'
  const all = Object.entries(errors)
  const pixelMessages = all.filter(([f]) => f === 'pixel_ids' || f.startsWith('pixel_ids.'))
  return (
    <form method="post" action={action} class="link-form" novalidate>
      <CsrfField token={props.viewer.csrf} />
      {/* The first submit button is the one Enter presses: saving, not a row button. */}
      <button type="submit" class="default-submit" tabIndex={-1} aria-hidden="true">
        Save
      </button>
      {all.length > 0 ? (
        <section class="panel errors" role="alert" aria-labelledby="errors-heading">
          <h2 id="errors-heading">The link was not saved</h2>
          <ul id="form-errors">
            {all.flatMap(([field, list]) =>
              list.map((message) => <li key={`${field} ${message}`}>{message}</li>),
            )}
          </ul>
        </section>
      ) : null}
      <fieldset class="panel">
        <legend>Link</legend>
        <Input
          name="url"
          label="Destination URL"
          value={values.url}
          inputMode="url"
          placeholder="https://"
          errors={errors}
        />
        {link ? (
          <p class="muted small">
            Domain: <span id="link-domain">{link.domain.name}</span> (it cannot be changed)
          </p>
        ) : (
          <Select
            name="domain_id"
            label="Domain"
            value={values.domain_id}
            options={choices.domains.map((d) => [String(d.id), d.name] as const)}
            errors={errors}
          />
        )}
        <Input
          name="alias"
          label="Alias"
          value={values.alias}
          errors={errors}
          hint={
            link ? 'Letters, digits, - and _.' : 'Letters, digits, - and _. Empty: a random one.'
          }
        />
        <Input
          name="title"
          label="Title"
          value={values.title}
          errors={errors}
          hint="Empty: taken from the destination page."
        />
      </fieldset>
      <fieldset class="panel">
        <legend>Space and pixels</legend>
        <Select
          name="space_id"
          label="Space"
          value={values.space_id}
          options={[
            ['', 'No space'],
            ...choices.spaces.map((s) => [String(s.id), s.name] as const),
          ]}
          errors={errors}
        />
        <fieldset class="choices" id="pixels">
          <legend>Pixels</legend>
          {/* Sent even when no box is ticked, so unticking them all clears the set. */}
          <input type="hidden" name="pixel_ids[]" value="" />
          {choices.pixels.length === 0 ? (
            <p class="muted small">
              No pixels yet. <a href="/dashboard/pixels">Pixels</a>
            </p>
          ) : (
            choices.pixels.map((p) => (
              <Checkbox
                key={p.id}
                name="pixel_ids[]"
                value={String(p.id)}
                label={`${p.name} (${p.type})`}
                checked={values.pixel_ids.includes(String(p.id))}
              />
            ))
          )}
          {pixelMessages.length > 0 ? (
            <p class="field-error" id="pixel_ids-error">
              {pixelMessages.flatMap(([, list]) => list).join(' ')}
            </p>
          ) : null}
        </fieldset>
      </fieldset>
      <fieldset class="panel">
        <legend>Access</legend>
        <Select
          name="disabled"
          label="Status"
          value={values.disabled}
          options={[
            ['0', 'Active'],
            ['1', 'Disabled'],
          ]}
          errors={errors}
        />
        <Input
          name="password"
          label="Password for visitors"
          type="password"
          autocomplete="new-password"
          value={values.password}
          errors={errors}
          hint={
            link?.password
              ? 'A password is set. Leave empty to keep it.'
              : 'Empty: no password. Up to 128 characters.'
          }
        />
        {link?.password ? (
          <Checkbox
            name="_clear_password"
            value="1"
            label="Remove the password"
            checked={values.clear_password}
          />
        ) : null}
      </fieldset>
      <fieldset class="panel">
        <legend>Statistics</legend>
        <Select
          name="privacy"
          label="Who can see the statistics page"
          value={values.privacy}
          options={[
            ['0', 'Anyone (public)'],
            ['1', 'Only me (private)'],
            ['2', 'Anyone with the statistics password'],
          ]}
          errors={errors}
        />
        <Input
          name="privacy_password"
          label="Statistics password"
          type="password"
          autocomplete="new-password"
          value={values.privacy_password}
          errors={errors}
          hint={
            link?.privacy_password
              ? 'A statistics password is set. Leave empty to keep it.'
              : 'Needed when the statistics need a password.'
          }
        />
        {link?.privacy_password ? (
          <Checkbox
            name="_clear_privacy_password"
            value="1"
            label="Remove the statistics password"
            checked={values.clear_privacy_password}
          />
        ) : null}
      </fieldset>
      <fieldset class="panel">
        <legend>Expiry</legend>
        <p class="muted small" id="expiry-zone">
          Date and time are in your account's time zone, {props.timeZone}. Both empty: no expiry
          date.
        </p>
        <div class="pair">
          <Input
            name="expiration_date"
            label="Expires on"
            type="date"
            value={values.expiration_date}
            errors={errors}
          />
          <Input
            name="expiration_time"
            label="At"
            type="time"
            value={values.expiration_time}
            errors={errors}
          />
        </div>
        <Input
          name="expiration_clicks"
          label="Expires after this many clicks"
          type="number"
          inputMode="numeric"
          value={values.expiration_clicks}
          errors={errors}
          hint="0 or empty: no limit."
        />
        <Input
          name="expiration_url"
          label="Once expired, send visitors to"
          value={values.expiration_url}
          inputMode="url"
          placeholder="https://"
          errors={errors}
          hint="Empty: a page saying the link has expired."
        />
      </fieldset>
      <Targeting values={values} errors={errors} action={action} focus={props.focus} />
      <div class="actions">
        <button type="submit" id="save-link">
          {link ? 'Save changes' : 'Create link'}
        </button>
        <a class="button secondary" href="/dashboard/links">
          Cancel
        </a>
      </div>
    </form>
  )
}

/** Which control a row button's re-render puts the focus on. */
export type FocusHint = { list: TargetList; row: number | 'add' } | null

/**
 * Only the targeting section, for a row button pressed with htmx: a fragment without the
 * page's stylesheet, whose nonce would not be the nonce of the page it lands in.
 */
export function targetingFragment(input: LinkFormInput, focus: FocusHint): string {
  const action = input.link ? `/dashboard/links/${input.link.id}` : '/dashboard/links/new'
  return renderToString(
    <Targeting values={input.values} errors={input.errors} action={action} focus={focus} />,
  )
}

export function linkFormPage(
  viewer: Viewer,
  input: LinkFormInput,
  focus: FocusHint = null,
): RenderedPage {
  const { link } = input
  return dashboardPage({
    title: link ? `Edit ${link.alias}` : 'New link',
    section: 'links',
    viewer,
    children: (
      <>
        {input.notice && link ? (
          <p class="notice" role="status" id="link-notice">
            {input.notice}{' '}
            <a href={safeHref(link.short_url)} id="notice-short-url">
              {link.short_url}
            </a>{' '}
            <button type="button" class="secondary-button copy" data-copy={link.short_url} hidden>
              Copy
            </button>
          </p>
        ) : null}
        {link ? (
          <p class="link-nav">
            <a href={`/dashboard/links/${link.id}/stats`}>Statistics</a>
            <a href={`/dashboard/links/${link.id}/qr`}>QR code</a>
            <a href={safeHref(`${link.short_url}+`)}>Preview</a>
            <a href={`/dashboard/links/${link.id}/delete`}>Delete</a>
          </p>
        ) : null}
        <LinkForm {...input} viewer={viewer} focus={focus} />
      </>
    ),
  })
}
