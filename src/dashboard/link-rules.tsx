/**
 * The redirect rules section of the link form: each rule its conditions (a type, a query
 * parameter's name for `query`, a value) and the URL it sends to. Buttons add, remove and move
 * rules and conditions (`_rules_action`); they re-render the form without saving, and with htmx
 * swap this section alone.
 */
import { MAX_RULE_CONDITIONS, MAX_RULES } from '../links/redirect-rules.js'
import { Errors, Input, Select, type Messages, type Options } from './form-fields.js'
import { blankRule, type RuleRow } from './link-rules-form.js'

const TYPE_OPTIONS: Options = [
  ['', '—'],
  ['country', 'Country (ISO code, FR)'],
  ['region', 'Region (ISO 3166-2, US-CA)'],
  ['platform', 'Platform (iOS, Android …)'],
  ['device', 'Device (mobile, tablet, desktop)'],
  ['browser', 'Browser (Chrome, Safari …)'],
  ['language', 'Language (ISO 639-1, de)'],
  ['before', 'Before (2026-05-01T10:00Z)'],
  ['after', 'After (2026-05-01T10:00Z)'],
  ['query', 'Query parameter'],
]

function button(action: string, value: string, label: string, aria: string, extra = 'row-button') {
  return (
    <button
      type="submit"
      class={`secondary-button ${extra}`}
      name="_rules_action"
      value={value}
      aria-label={aria}
      hx-post={action}
      hx-target="#rules"
      hx-select="#rules"
      hx-swap="outerHTML"
    >
      {label}
    </button>
  )
}

function Rule(props: {
  rule: RuleRow
  i: number
  last: boolean
  errors: Messages
  action: string
}) {
  const { rule, i, errors, action } = props
  const at = `rules.${i}`
  const n = i + 1
  const conditions = rule.conditions.length > 0 ? rule.conditions : blankRule().conditions
  return (
    <li class="rule" id={`rule-${i}`}>
      <fieldset>
        <legend>Rule {n}</legend>
        <Errors id={`rules-${i}`} messages={errors[at]} />
        <Errors id={`rules-${i}-conditions`} messages={errors[`${at}.conditions`]} />
        {conditions.slice(0, MAX_RULE_CONDITIONS).map((c, j) => (
          <div class="rule-condition" key={j}>
            <Select
              name={`rules[${i}][conditions][${j}][type]`}
              field={`${at}.conditions.${j}.type`}
              label={j === 0 ? `If` : 'and'}
              value={c.type}
              options={TYPE_OPTIONS}
              errors={errors}
            />
            <Input
              name={`rules[${i}][conditions][${j}][key]`}
              field={`${at}.conditions.${j}.key`}
              label="Parameter (query only)"
              value={c.key}
              errors={errors}
            />
            <Input
              name={`rules[${i}][conditions][${j}][value]`}
              field={`${at}.conditions.${j}.value`}
              label="is"
              value={c.value}
              errors={errors}
            />
            {button(
              action,
              `remove_condition_${i}_${j}`,
              'Remove',
              `Remove condition ${j + 1} of rule ${n}`,
            )}
          </div>
        ))}
        {conditions.length < MAX_RULE_CONDITIONS
          ? button(action, `add_condition_${i}`, 'Add condition', `Add condition to rule ${n}`, '')
          : null}
        <Input
          name={`rules[${i}][url]`}
          field={`${at}.url`}
          label="Then send to"
          value={rule.url}
          inputMode="url"
          placeholder="https://"
          errors={errors}
        />
        <div class="rule-buttons">
          {i > 0 ? button(action, `up_${i}`, 'Move up', `Move up rule ${n}`, '') : null}
          {!props.last ? button(action, `down_${i}`, 'Move down', `Move down rule ${n}`, '') : null}
          {button(action, `remove_${i}`, 'Remove rule', `Remove rule ${n}`, '')}
        </div>
      </fieldset>
    </li>
  )
}

/** The section a button's htmx request swaps. At least one rule shows, ready to fill. */
export function RulesEditor(props: { rules: RuleRow[]; errors: Messages; action: string }) {
  const rules = props.rules.length > 0 ? props.rules.slice(0, MAX_RULES) : [blankRule()]
  return (
    <div class="rules" id="rules">
      <p class="muted small">
        The first rule whose conditions all hold sends the visitor to its URL, before targeting.
        Empty rules are left out.
      </p>
      <Errors id="rules" messages={props.errors.rules} />
      <ol class="rule-list">
        {rules.map((rule, i) => (
          <Rule
            key={i}
            rule={rule}
            i={i}
            last={i === rules.length - 1}
            errors={props.errors}
            action={props.action}
          />
        ))}
      </ol>
      {rules.length < MAX_RULES ? (
        button(props.action, 'add', 'Add rule', 'Add rule', '')
      ) : (
        <p class="muted small" id="rules-full">
          A link takes at most {MAX_RULES} rules.
        </p>
      )}
    </div>
  )
}
