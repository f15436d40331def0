/**
 * The link form's UTM section: the five utm_* fields of the destination URL's query, a chooser
 * of the user's templates with an Apply button, and "save as template". Without JavaScript the
 * fields are merged into the URL when the form is sent (link-utm-form.ts); with it, the
 * dashboard script keeps the URL and the fields in step as either is typed (utm-script.ts).
 * With htmx, "save as template" swaps only this section.
 */
import { Input } from './form-fields.js'
import { utmFields, type UtmFormState } from './link-utm-form.js'
import type { UtmParameter } from '../utm/schema.js'

const FIELDS: { name: UtmParameter; label: string; hint: string }[] = [
  {
    name: 'utm_source',
    label: 'Source',
    hint: 'Where the traffic comes from: newsletter, google.',
  },
  { name: 'utm_medium', label: 'Medium', hint: 'The channel: email, cpc, social.' },
  { name: 'utm_campaign', label: 'Campaign', hint: 'The campaign: spring_sale.' },
  { name: 'utm_term', label: 'Term', hint: 'The paid search term.' },
  { name: 'utm_content', label: 'Content', hint: 'What was clicked: hero_button.' },
]

export function UtmFields(props: { url: string; state: UtmFormState; action: string }) {
  const { state } = props
  const values = utmFields(props.url)
  const errors = state.errors
  return (
    <div id="utm" class="utm" data-utm-form="">
      <p class="muted small" id="utm-intro">
        Written into the destination URL’s query; an emptied field removes its parameter. Other
        parameters and the #fragment are kept.
      </p>
      {state.notice ? (
        <p class="notice" role="status" id="utm-notice">
          {state.notice}
        </p>
      ) : null}
      <div class="utm-choose">
        <div class="field">
          <label for="utm-template">Template</label>
          <select id="utm-template" name="_utm_template">
            <option value="">
              {state.templates.length === 0 ? 'No templates yet' : 'Choose a template'}
            </option>
            {state.templates.map((t) => (
              <option
                key={t.id}
                value={String(t.id)}
                selected={state.chosen === String(t.id) || undefined}
                data-utm={JSON.stringify(t.values)}
              >
                {t.name}
              </option>
            ))}
          </select>
          {errors._utm_template ? (
            <p class="field-error" id="utm-template-error">
              {errors._utm_template.join(' ')}
            </p>
          ) : null}
        </div>
        <button type="submit" name="_action" value="utm_apply" class="secondary" id="utm-apply">
          Apply
        </button>
      </div>
      <div class="pair utm-fields">
        {FIELDS.map((f) => (
          <Input
            key={f.name}
            name={f.name}
            label={`${f.label} (${f.name})`}
            value={values[f.name]}
            errors={errors}
            hint={f.hint}
          />
        ))}
      </div>
      <div class="utm-choose">
        <Input
          name="_utm_template_name"
          label="Save these values as a template named"
          value={state.templateName}
          errors={errors}
        />
        <button
          type="submit"
          name="_action"
          value="utm_save"
          class="secondary"
          id="utm-save"
          hx-post={props.action}
          hx-target="#utm"
          hx-select="#utm"
          hx-swap="outerHTML"
        >
          Save as template
        </button>
      </div>
      <p class="small">
        <a href="/dashboard/utm-templates">Manage UTM templates</a>
      </p>
    </div>
  )
}
