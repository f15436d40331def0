/**
 * The pages every named resource of the dashboard shares (pixels, spaces, domains, and the
 * admin's global domains): a list driven by the API list's parameters, a form for creating and
 * editing that shows each field's messages beside it and keeps what was typed, and a
 * confirmation page before a delete. The resource-specific parts (columns, fields, filters)
 * come from a `ResourceView`.
 */
import type { ComponentChildren } from 'preact'
import type { RenderedPage } from '../pages/layout.js'
import type { FieldMessages } from '../shared/errors.js'
import {
  CsrfField,
  FilterSelect,
  Notice,
  OrderAndRows,
  Pager,
  RefusedFilters,
} from './components.js'
import { inPeoplesWords, labelled } from './messages.js'
import { dashboardPage, sectionHome, type Section, type Viewer } from './shell.js'

const numbers = new Intl.NumberFormat('en-US')

export type Choices = readonly (readonly [string, string])[]

export interface FormFieldSpec {
  name: string
  label: string
  /** A select of these choices; a text input when absent. */
  choices?: Choices
  hint?: string
  autocomplete?: string
}

export interface Column<Row> {
  label: string
  cell(row: Row): ComponentChildren
}

export interface ResourceView<Row extends { id: number }> {
  section: Section
  /** The page title of the list ("Pixels"). */
  title: string
  /** The word for one ("pixel"), in notices and headings. */
  object: string
  /** Where the list is (`/dashboard/pixels`); the other pages are under it. */
  base: string
  columns: Column<Row>[]
  fields: FormFieldSpec[]
  /** Selects of the list besides search, sort and rows (the pixel type). */
  filters?: { name: string; label: string; choices: Choices }[]
  /** The name a row is known by in headings. */
  nameOf(row: Row): string
  /** The form's values for an existing row. */
  valuesOf(row: Row): Record<string, string>
  /** Rows that can be seen but not changed here (global domains, for their users). */
  readOnly?(row: Row): boolean
  /** A line under the heading of the list. */
  intro?: string
  /** What deleting one also does ("Its links are deleted with it."). */
  deleteWarning?: string
  /** More pages of a row, before Edit and Delete (a tag's statistics). */
  rowLinks?(row: Row): { label: string; href: string }[]
}

export interface ListInput<Row> {
  query: Record<string, string | number | undefined>
  records: Row[]
  total: number
  page: number
  perPage: number
  notice: string | null
}

function SelectField(props: {
  id: string
  name: string
  label: string
  value: string
  choices: Choices
  error?: string[] | undefined
}) {
  const errorId = `${props.id}-error`
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        name={props.name}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? errorId : undefined}
      >
        {props.choices.map(([value, text]) => (
          <option key={value} value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
      {props.error ? <FieldError id={errorId} messages={props.error} /> : null}
    </>
  )
}

function FieldError(props: { id: string; messages: string[] }) {
  return (
    <p class="field-error" id={props.id}>
      {props.messages.join(' ')}
    </p>
  )
}

function pageHref(base: string, query: ListInput<unknown>['query'], page: number): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (name !== 'page' && value !== undefined) params.set(name, String(value))
  }
  params.set('page', String(page))
  return `${base}?${params.toString()}`
}

export function resourceListPage<Row extends { id: number }>(
  viewer: Viewer,
  view: ResourceView<Row>,
  input: ListInput<Row>,
): RenderedPage {
  const { query } = input
  const lastPage = Math.max(1, Math.ceil(input.total / input.perPage))
  const first = input.records.length > 0 ? (input.page - 1) * input.perPage + 1 : 0
  const last = first === 0 ? 0 : first + input.records.length - 1
  const text = (name: string) => (query[name] === undefined ? '' : String(query[name]))
  return dashboardPage({
    title: view.title,
    section: view.section,
    viewer,
    children: (
      <>
        <Notice text={input.notice} />
        {view.intro ? <p class="muted">{view.intro}</p> : null}
        <p>
          <a class="button" href={`${view.base}/new`} id="new-item">
            New {view.object}
          </a>
        </p>
        <form class="panel filters" method="get" action={view.base} role="search">
          <div class="filter grow">
            <label for="filter-search">Search names</label>
            <input id="filter-search" type="search" name="search" value={text('search')} />
          </div>
          {(view.filters ?? []).map((f) => (
            <FilterSelect
              key={f.name}
              name={f.name}
              label={f.label}
              value={text(f.name)}
              options={[['', 'All'], ...f.choices]}
            />
          ))}
          <FilterSelect
            name="sort_by"
            label="Sort by"
            value={text('sort_by') || 'id'}
            options={[
              ['id', 'Created'],
              ['name', 'Name'],
            ]}
          />
          <OrderAndRows sort={text('sort') || 'desc'} perPage={input.perPage} />
        </form>
        <p class="muted" id="items-count" role="status">
          {input.total === 0
            ? `No ${view.title.toLowerCase()} match.`
            : first === 0
              ? `Nothing on page ${input.page}: there are ${numbers.format(input.total)} on ${lastPage} page${lastPage === 1 ? '' : 's'}.`
              : `${numbers.format(first)}–${numbers.format(last)} of ${numbers.format(input.total)}`}
        </p>
        {input.records.length > 0 ? (
          <div class="panel table-scroll">
            <table id="items" class="cards">
              <thead>
                <tr>
                  {view.columns.map((c) => (
                    <th scope="col" key={c.label}>
                      {c.label}
                    </th>
                  ))}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {input.records.map((row) => (
                  <tr key={row.id} id={`item-${row.id}`}>
                    {view.columns.map((c, i) => (
                      <td key={c.label} data-label={i === 0 ? undefined : c.label}>
                        {c.cell(row)}
                      </td>
                    ))}
                    <td class="nowrap">
                      {view.readOnly?.(row) ? (
                        <span class="muted">Read-only</span>
                      ) : (
                        <span class="row-actions">
                          {view.rowLinks?.(row).map((link) => (
                            <a key={link.label} href={link.href}>
                              {link.label}
                              <span class="visually-hidden"> of {view.nameOf(row)}</span>
                            </a>
                          ))}
                          <a href={`${view.base}/${row.id}/edit`}>
                            Edit<span class="visually-hidden"> {view.nameOf(row)}</span>
                          </a>
                          <a href={`${view.base}/${row.id}/delete`}>
                            Delete<span class="visually-hidden"> {view.nameOf(row)}</span>
                          </a>
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <Pager
          page={input.page}
          lastPage={lastPage}
          href={(page) => pageHref(view.base, query, page)}
        />
      </>
    ),
  })
}

/** Send with 422: list parameters the API would refuse, each with the API's message. */
export function resourceQueryErrorPage<Row extends { id: number }>(
  viewer: Viewer,
  view: ResourceView<Row>,
  messages: FieldMessages,
): RenderedPage {
  return dashboardPage({
    title: view.title,
    section: view.section,
    viewer,
    children: (
      <RefusedFilters
        messages={messages}
        back={view.base}
        backText={`Show all ${view.title.toLowerCase()}`}
      />
    ),
  })
}

/**
 * The create form (no `id`) or the edit form of one row: the values shown are what was typed
 * when a submission failed, else the row's own.
 */
export function resourceFormPage<Row extends { id: number }>(
  viewer: Viewer,
  view: ResourceView<Row>,
  input: { id?: number; heading: string; values: Record<string, string>; errors?: FieldMessages },
): RenderedPage {
  // The API's messages, naming the labels of this form.
  const labels = Object.fromEntries(
    view.fields.map((f) => [f.name, f.label.replace(/ \(optional\)$/, '')]),
  )
  const errors = inPeoplesWords(input.errors ?? {}, labelled(labels))
  const action = input.id === undefined ? view.base : `${view.base}/${input.id}`
  const failed = Object.keys(errors).length > 0
  return dashboardPage({
    title: input.heading,
    section: view.section,
    viewer,
    children: (
      <section class="panel">
        {failed ? (
          <p class="field-error" role="alert" id="form-errors">
            Nothing was saved: please correct the fields marked below.
          </p>
        ) : null}
        <form method="post" action={action} novalidate>
          <CsrfField token={viewer.csrf} />
          {view.fields.map((f) => {
            const value = input.values[f.name] ?? ''
            const error = errors[f.name]
            const errorId = `${f.name}-error`
            const hintId = `${f.name}-hint`
            const described = [error ? errorId : null, f.hint ? hintId : null]
              .filter((s) => s !== null)
              .join(' ')
            return (
              <div class="field" key={f.name}>
                {f.choices ? (
                  <SelectField
                    id={f.name}
                    name={f.name}
                    label={f.label}
                    value={value}
                    choices={f.choices}
                    error={error}
                  />
                ) : (
                  <>
                    <label for={f.name}>{f.label}</label>
                    <input
                      type="text"
                      id={f.name}
                      name={f.name}
                      value={value}
                      autocomplete={f.autocomplete ?? 'off'}
                      aria-invalid={error ? 'true' : undefined}
                      aria-describedby={described === '' ? undefined : described}
                    />
                    {error ? <FieldError id={errorId} messages={error} /> : null}
                  </>
                )}
                {f.hint ? (
                  <p class="muted small hint" id={hintId}>
                    {f.hint}
                  </p>
                ) : null}
              </div>
            )
          })}
          <div class="actions">
            <button type="submit">
              {input.id === undefined ? `Create ${view.object}` : 'Save'}
            </button>
            <a class="button secondary" href={view.base}>
              Cancel
            </a>
          </div>
        </form>
      </section>
    ),
  })
}

export function resourceDeletePage<Row extends { id: number }>(
  viewer: Viewer,
  view: ResourceView<Row>,
  row: Row,
): RenderedPage {
  return dashboardPage({
    title: `Delete ${view.object}`,
    section: view.section,
    viewer,
    children: (
      <section class="panel">
        <p>
          Delete the {view.object} <strong id="delete-name">{view.nameOf(row)}</strong>?
          {view.deleteWarning ? ` ${view.deleteWarning}` : ''} This cannot be undone.
        </p>
        <form method="post" action={`${view.base}/${row.id}/delete`}>
          <CsrfField token={viewer.csrf} />
          <div class="actions">
            <button type="submit" class="danger">
              Delete {view.object}
            </button>
            <a class="button secondary" href={view.base}>
              Keep it
            </a>
          </div>
        </form>
      </section>
    ),
  })
}

/** Send with 404: an id that is not one of the viewer's (or does not exist). */
export function dashboardNotFoundPage(viewer: Viewer, asked: Section): RenderedPage {
  const section = asked === 'admin' && !viewer.admin ? 'overview' : asked
  const home = sectionHome(section)
  return dashboardPage({
    title: 'Not found',
    section,
    viewer,
    children: (
      <section class="panel">
        <p>There is nothing here, or it is not yours.</p>
        <p>
          <a href={home.href} id="not-found-back">
            Back to {home.label}
          </a>
        </p>
      </section>
    ),
  })
}
