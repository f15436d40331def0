/** Small building blocks shared by the dashboard's pages. */
import type { ComponentChildren } from 'preact'
import { PER_PAGE } from '../shared/schema.js'
import type { FieldMessages } from '../shared/errors.js'

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

/** The notice a page shows after a change (its redirect's `?notice=`), announced as a status. */
export function Notice(props: { text: string | null | undefined }) {
  return props.text ? (
    <p class="notice" role="status" id="notice">
      {props.text}
    </p>
  ) : null
}

const numbers = new Intl.NumberFormat('en-US')

/**
 * The links to the previous and next page of a list around "Page n of m" (`capped`: the last
 * page is not known, "Page n"); none when there is one page only.
 */
export function Pager(props: {
  page: number
  lastPage: number
  capped?: boolean
  href: (page: number) => string
}) {
  const { page, lastPage } = props
  if (lastPage <= 1) return null
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a rel="prev" href={props.href(page - 1)}>
          Previous
        </a>
      ) : null}
      <span>
        {props.capped
          ? `Page ${numbers.format(page)}`
          : `Page ${numbers.format(page)} of ${numbers.format(lastPage)}`}
      </span>
      {page < lastPage ? (
        <a rel="next" href={props.href(page + 1)}>
          Next
        </a>
      ) : null}
    </nav>
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

/** The end of every list's filter form: the order, the rows a page, and the button. */
export function OrderAndRows(props: { sort: string; perPage: number }) {
  return (
    <>
      <FilterSelect
        name="sort"
        label="Order"
        value={props.sort}
        options={[
          ['desc', 'Descending'],
          ['asc', 'Ascending'],
        ]}
      />
      <FilterSelect
        name="per_page"
        label="Rows"
        value={String(props.perPage)}
        options={PER_PAGE.map((n) => [String(n), String(n)] as const)}
      />
      <div class="filter">
        <button type="submit">Apply</button>
      </div>
    </>
  )
}

/** A list's filters the API would refuse, each with the API's message, and a way back. */
export function RefusedFilters(props: { messages: FieldMessages; back: string; backText: string }) {
  return (
    <section class="panel" role="alert">
      <h2>These filters cannot be used</h2>
      <ul id="query-errors">
        {Object.entries(props.messages).flatMap(([field, list]) =>
          list.map((message) => <li key={`${field}${message}`}>{message}</li>),
        )}
      </ul>
      <p>
        <a href={props.back}>{props.backText}</a>
      </p>
    </section>
  )
}

/** The user's tag names as a `<datalist>`: the browser's own suggestions for a tag field. */
export function TagNames(props: { id: string; names: string[] }) {
  return (
    <datalist id={props.id}>
      {props.names.map((name) => (
        <option key={name} value={name} />
      ))}
    </datalist>
  )
}
