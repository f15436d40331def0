/**
 * Labelled form controls of the dashboard's larger forms: each names its API field, shows that
 * field's messages under it (`<id>-error`, referenced by `aria-describedby` with its hint) and
 * marks itself `aria-invalid` when it has any.
 */
import type { ComponentChildren } from 'preact'

export type Options = readonly (readonly [string, string])[]
export type Messages = Record<string, string[]>

/** The element id of a form name: `country[0][key]` → `country-0-key`. */
export const idOf = (name: string) => name.replace(/\]\[|\[|\]/g, '-').replace(/-$/, '')

/** The messages of a field, with the id that describes it. */
export function Errors(props: { id: string; messages: string[] | undefined }) {
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

export function Input(props: {
  name: string
  label: string
  value: string
  errors: Messages
  /** The API field the messages are under, when it differs from the form name. */
  field?: string
  type?: 'text' | 'password' | 'date' | 'time' | 'number'
  inputMode?: 'url' | 'numeric'
  hint?: ComponentChildren
  autocomplete?: string
  placeholder?: string
  autofocus?: boolean
  /** The id of a `<datalist>` of suggestions. */
  list?: string
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
        <input type="text" inputMode={props.inputMode} list={props.list} {...common} />
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

export function Select(props: {
  name: string
  label: string
  value: string
  options: Options
  errors: Messages
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

export function Checkbox(props: {
  name: string
  value: string
  label: string
  checked: boolean
  /** The element id, when not the one of the name and value. */
  id?: string
}) {
  const id = props.id ?? idOf(`${props.name}-${props.value}`)
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
