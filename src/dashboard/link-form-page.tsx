/**
 * The create and edit forms of a link: every field of the API under the API's names; the
 * destination, domain, alias and title first, the rest in closed sections whose summaries say
 * what is set. Each message is shown in people's words next to its field (and all of them are
 * listed on top); targeting lists have rows added and removed by submit buttons that re-render
 * the form without saving (with htmx, only the targeting section is swapped).
 */
import type { ComponentChildren } from 'preact'
import { renderToString } from 'preact-render-to-string'
import type { LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { safeHref } from '../pages/safe-values.js'
import { CsrfField, TagNames } from './components.js'
import { Checkbox, Input, Select } from './form-fields.js'
import type { LinkFormValues } from './link-form.js'
import { PRIVACY_STATES, summaries, TARGET_STATES } from './link-form-summaries.js'
import { inPeoplesWords, linkNaming } from './messages.js'
import { SocialPreview, socialState } from './link-social-preview.js'
import { Targeting, type FocusHint } from './link-targeting.js'
import { RulesEditor } from './link-rules.js'
import { utmSummary, type UtmFormState } from './link-utm-form.js'
import { UtmFields } from './link-utm.js'
import { DuplicateLink } from './link-duplicate.js'
import { dashboardPage, type Viewer } from './shell.js'

export type { FocusHint } from './link-targeting.js'

export interface LinkChoices {
  domains: { id: number; name: string }[]
  spaces: { id: number; name: string }[]
  pixels: { id: number; name: string; type: string }[]
  /** The user's tag names, suggested in the tags field. */
  tags: string[]
}

export interface LinkFormInput {
  values: LinkFormValues
  errors: Record<string, string[]>
  choices: LinkChoices
  timeZone: string
  /** Edit form: the stored link. */
  link?: LinkRecord
  notice?: string | null
  /** The expiry date has passed: the form asks to confirm it (`_past_expiry=1`). */
  pastExpiry?: boolean
  /** A button of the rules editor was pressed: its section stays open. */
  rulesOpen?: boolean
  utm: UtmFormState
}

/** The form's optional parts, each a closed section whose summary says what is set. */
const SECTION_FIELDS: Record<string, (field: string) => boolean> = {
  access: (f) => f === 'password' || f === 'disabled',
  statistics: (f) => f === 'privacy' || f === 'privacy_password',
  expiry: (f) => f.startsWith('expiration_'),
  targeting: (f) => f === 'target_type' || /^(country|platform|language|rotation)(\.|$)/.test(f),
  rules: (f) => f === 'rules' || f.startsWith('rules.'),
  organise: (f) => /^(space_id|pixel_ids|tags)(\.|$)/.test(f),
  social: (f) => f.startsWith('og_'),
}

function Section(props: {
  id: string
  name: string
  state: string
  open: boolean
  /** A select whose choice the dashboard script writes into the summary as it changes. */
  follows?: { select: string; states: Record<string, string> }
  children: ComponentChildren
}) {
  return (
    <details class="option" id={`section-${props.id}`} open={props.open || undefined}>
      <summary>
        <span class="option-name">{props.name}</span>
        <span
          class="option-state"
          id={`state-${props.id}`}
          data-follows={props.follows?.select}
          data-states={props.follows ? JSON.stringify(props.follows.states) : undefined}
        >
          {props.state}
        </span>
      </summary>
      <div class="option-body">{props.children}</div>
    </details>
  )
}

function LinkForm(props: LinkFormInput & { viewer: Viewer; focus: FocusHint }) {
  const { values, choices, link } = props
  const errors = inPeoplesWords(props.errors, linkNaming)
  const action = link ? `/dashboard/links/${link.id}` : '/dashboard/links/new'
  const all = Object.entries(errors)
  const pixelMessages = all.filter(([f]) => f === 'pixel_ids' || f.startsWith('pixel_ids.'))
  const tagMessages = all.filter(([f]) => f === 'tags' || f.startsWith('tags.'))
  const failed = (section: string) => all.some(([f]) => SECTION_FIELDS[section]!(f))
  const state = summaries(values, choices, link)
  const domainName =
    link?.domain.name ?? choices.domains.find((d) => String(d.id) === values.domain_id)?.name ?? ''
  const urlFocus = props.focus === null && (all.length === 0 ? !link : 'url' in errors)
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
      <div class="panel link-main">
        <Input
          name="url"
          label="Destination URL"
          value={values.url}
          inputMode="url"
          placeholder="https://example.org/a/long/page"
          errors={errors}
          autofocus={urlFocus || undefined}
        />
        <div class="pair">
          {link ? (
            <div class="field">
              <p class="label-like">Domain</p>
              <p class="muted small">
                <span id="link-domain">{link.domain.name}</span> (a link keeps its domain)
              </p>
            </div>
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
              link
                ? 'Letters, digits, - and _.'
                : 'Letters, digits, - and _. Leave it empty for a random one.'
            }
          />
        </div>
        <Input
          name="title"
          label="Title"
          value={values.title}
          errors={errors}
          hint="Leave it empty to use the title of the destination page."
        />
      </div>
      <div class="panel options">
        <Section
          id="access"
          name="Password and status"
          state={state.access}
          open={failed('access')}
        >
          <Input
            name="password"
            label="Password for visitors"
            type="password"
            autocomplete="new-password"
            value={values.password}
            errors={errors}
            hint={
              link?.password
                ? 'A password is set. Leave this empty to keep it.'
                : 'Visitors must type it to reach the destination. Up to 128 characters.'
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
          <Select
            name="disabled"
            label="Status"
            value={values.disabled}
            options={[
              ['0', 'Active'],
              ['1', 'Disabled: visitors see that the link is off'],
            ]}
            errors={errors}
          />
        </Section>
        <Section
          id="statistics"
          name="Statistics page"
          state={state.statistics}
          follows={{ select: 'privacy', states: PRIVACY_STATES }}
          open={failed('statistics')}
        >
          <div class="statistics-options">
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
            <div class="privacy-password">
              <Input
                name="privacy_password"
                label="Statistics password"
                type="password"
                autocomplete="new-password"
                value={values.privacy_password}
                errors={errors}
                hint={
                  link?.privacy_password
                    ? 'A statistics password is set. Leave this empty to keep it.'
                    : 'People type it to see the statistics.'
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
            </div>
          </div>
        </Section>
        <Section
          id="expiry"
          name="Expiry"
          state={state.expiry}
          open={failed('expiry') || props.pastExpiry === true}
        >
          <p class="muted small" id="expiry-zone">
            In your account's time zone, {props.timeZone}. Leave the date and time empty for no end
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
          {props.pastExpiry ? (
            <Checkbox
              name="_past_expiry"
              value="1"
              label="Yes, save it with this date: the link expires at once"
              checked={false}
            />
          ) : null}
          <Input
            name="expiration_clicks"
            label="Expires after this many clicks"
            type="number"
            inputMode="numeric"
            value={values.expiration_clicks}
            errors={errors}
            hint="Leave it empty (or 0) for no limit."
          />
          <Input
            name="expiration_url"
            label="Once expired, send visitors to"
            value={values.expiration_url}
            inputMode="url"
            placeholder="https://"
            errors={errors}
            hint="Leave it empty for a page saying the link has expired."
          />
        </Section>
        <Section
          id="targeting"
          name="Targeting"
          state={state.targeting}
          follows={{ select: 'target_type', states: TARGET_STATES }}
          open={failed('targeting') || props.focus !== null}
        >
          <Targeting values={values} errors={errors} action={action} focus={props.focus} />
        </Section>
        <Section
          id="rules"
          name="Rules"
          state={rulesState(values.rules)}
          open={failed('rules') || props.rulesOpen === true}
        >
          <RulesEditor rules={values.rules} errors={errors} action={action} />
        </Section>
        <Section
          id="utm"
          name="UTM parameters"
          state={utmSummary(values.url)}
          open={props.utm.notice !== null || Object.keys(props.utm.errors).length > 0}
        >
          <UtmFields url={values.url} state={props.utm} action={action} />
        </Section>
        <Section
          id="organise"
          name="Space, tags and pixels"
          state={state.organise}
          open={failed('organise')}
        >
          {/* The script keeps the count of tags, next to last in the summary, as chips change. */}
          <div class="tag-field" data-tag-suggestions="tag-names" data-tag-count="state-organise">
            <Input
              name="tags"
              label="Tags"
              value={values.tags}
              errors={
                tagMessages.length > 0 ? { tags: tagMessages.flatMap(([, list]) => list) } : {}
              }
              hint="Names separated by commas; a new name makes a tag."
              autocomplete="off"
              list="tag-names"
            />
            <TagNames id="tag-names" names={choices.tags} />
          </div>
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
                No pixels yet. <a href="/dashboard/pixels/new">Add a pixel</a>
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
        </Section>
        <Section
          id="social"
          name="Social preview"
          state={socialState(values)}
          open={failed('social')}
        >
          <SocialPreview
            values={values}
            errors={errors}
            domain={domainName}
            fallbackTitle={link ? link.short_url : domainName}
          />
        </Section>
      </div>
      <div class="actions form-footer">
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
    <Targeting
      values={input.values}
      errors={inPeoplesWords(input.errors, linkNaming)}
      action={action}
      focus={focus}
    />,
  )
}

/** Only the rules section, for a button of the rules editor pressed with htmx. */
export function rulesFragment(input: LinkFormInput): string {
  const action = input.link ? `/dashboard/links/${input.link.id}` : '/dashboard/links/new'
  return renderToString(
    <RulesEditor
      rules={input.values.rules}
      errors={inPeoplesWords(input.errors, linkNaming)}
      action={action}
    />,
  )
}

function rulesState(rules: LinkFormValues['rules']): string {
  const n = rules.filter((r) => r.url !== '' || r.conditions.some((c) => c.type !== '')).length
  return n === 0 ? 'None' : n === 1 ? '1 rule' : `${n} rules`
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
    images: 'https',
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
            <DuplicateLink id={link.id} csrf={viewer.csrf} />
            <a href={`/dashboard/links/${link.id}/delete`}>Delete</a>
          </p>
        ) : null}
        <LinkForm {...input} viewer={viewer} focus={focus} />
      </>
    ),
  })
}
