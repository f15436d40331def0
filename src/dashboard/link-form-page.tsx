/**
 * The create and edit forms of a link: every field of the API under the API's names, each
 * API message shown next to its field (and all of them listed on top), and targeting lists
 * whose rows are added and removed by submit buttons that re-render the form without saving
 * (with htmx, only the targeting section is swapped).
 */
import { renderToString } from 'preact-render-to-string'
import type { LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { CsrfField } from './components.js'
import { Checkbox, Input, Select } from './form-fields.js'
import type { LinkFormValues } from './link-form.js'
import { Targeting, type FocusHint } from './link-targeting.js'
import { dashboardPage, type Viewer } from './shell.js'

export type { FocusHint } from './link-targeting.js'

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
