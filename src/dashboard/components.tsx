/** Small building blocks shared by the dashboard's pages. */
import type { ComponentChildren } from 'preact'

/** The hidden field every state-changing form carries. */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />
}

export function TextField(props: {
  name: string
  label: string
  type?: 'text' | 'email' | 'password'
  value?: string
  autocomplete?: string
  error?: string | null
  required?: boolean
  autofocus?: boolean
}) {
  const errorId = `${props.name}-error`
  const common = {
    id: props.name,
    name: props.name,
    value: props.value ?? '',
    autocomplete: props.autocomplete,
    required: props.required,
    autofocus: props.autofocus,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': props.error ? errorId : undefined,
  }
  return (
    <>
      <label for={props.name}>{props.label}</label>
      {props.type === 'password' ? (
        <input type="password" {...common} />
      ) : props.type === 'email' ? (
        <input type="email" {...common} />
      ) : (
        <input type="text" {...common} />
      )}
      {props.error ? (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
    </>
  )
}

/** One centred card with a heading, for pages outside the signed-in layout. */
export function Card(props: { title: string; children: ComponentChildren }) {
  return (
    <main>
      <h1>{props.title}</h1>
      {props.children}
    </main>
  )
}

/** A select of a list's filter form (`filter-<name>`): the links list and the resource lists. */
export function FilterSelect(props: {
  name: string
  label: string
  value: string
  options: readonly (readonly [string, string])[]
}) {
  return (
    <div class="filter">
      <label for={`filter-${props.name}`}>{props.label}</label>
      <select id={`filter-${props.name}`} name={props.name}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )
}
