/**
 * The Imports pages: the user's imports with their status and counts, the form that starts one
 * (a file, or an API's address and key), the links export, and one import's status with its
 * rows page by page. An import still running refreshes its status every few seconds with htmx;
 * without JavaScript a reload link does the same.
 */
import type { ImportRunRow, ImportRowResultRow } from '../db/types.js'
import { OUTCOMES, type Outcome } from '../imports/planner.js'
import { SOURCE_NAMES } from '../imports/sources/index.js'
import { renderToString } from 'preact-render-to-string'
import type { RenderedPage } from '../pages/layout.js'
import { CsrfField, RefusedFilters } from './components.js'
import { dashboardPage, type Viewer } from './shell.js'

const numbers = new Intl.NumberFormat('en-US')

const OUTCOME_LABELS: Record<Outcome, string> = {
  created: 'Created',
  renamed: 'Renamed',
  skipped: 'Skipped',
  duplicate: 'Duplicate',
  invalid: 'Invalid',
  unknown_domain: 'Unknown domain',
}

const SOURCE_LABELS: Record<(typeof SOURCE_NAMES)[number], string> = {
  csv: 'CSV (generic, or our export)',
  yourls: 'YOURLS (yourls_url table as CSV)',
  'shlink-csv': 'Shlink (CSV export)',
  bitly: 'Bitly (CSV or JSON export)',
  dub: 'Dub (CSV or JSON export)',
  sink: 'Sink (JSON export)',
  phpshort: 'phpShort or slink (API)',
  shlink: 'Shlink (API)',
  kutt: 'Kutt (API)',
}

const running = (record: ImportRunRow) => record.status === 'queued' || record.status === 'running'

export interface ImportFormValues {
  source?: string
  url?: string
  dry_run?: boolean
  on_conflict?: string
}

function FieldError(props: { name: string; messages: Record<string, string[]> }) {
  const list = props.messages[props.name]
  if (!list || list.length === 0) return null
  return (
    <p class="field-error" id={`${props.name}-error`}>
      {list.join(' ')}
    </p>
  )
}

function described(name: string, messages: Record<string, string[]>) {
  return messages[name]
    ? { 'aria-invalid': 'true' as const, 'aria-describedby': `${name}-error` }
    : {}
}

function ImportForm(props: {
  csrf: string
  values: ImportFormValues
  errors: Record<string, string[]>
}) {
  const { values, errors } = props
  const other = Object.entries(errors).filter(
    ([field]) => !['source', 'file', 'url', 'key', 'dry_run', 'on_conflict'].includes(field),
  )
  return (
    <section class="panel" aria-labelledby="start-import">
      <h2 id="start-import">Start an import</h2>
      <p class="muted small">
        A file source needs its export file (at most 50 MiB); an API source needs the address of the
        other instance and an API key of it. A dry run only reports what would happen.
      </p>
      {other.length > 0 ? (
        <ul class="field-error" role="alert">
          {other.flatMap(([field, list]) => list.map((m) => <li key={`${field}${m}`}>{m}</li>))}
        </ul>
      ) : null}
      <form
        method="post"
        action="/dashboard/imports"
        enctype="multipart/form-data"
        id="import-form"
        class="stack"
      >
        <CsrfField token={props.csrf} />
        <label for="source">Source</label>
        <select id="source" name="source" required {...described('source', errors)}>
          {SOURCE_NAMES.map((name) => (
            <option key={name} value={name} selected={values.source === name}>
              {SOURCE_LABELS[name]}
            </option>
          ))}
        </select>
        <FieldError name="source" messages={errors} />
        <label for="file">File (file sources)</label>
        <input type="file" id="file" name="file" {...described('file', errors)} />
        <FieldError name="file" messages={errors} />
        <label for="url">Address of the other instance (API sources)</label>
        <input
          type="url"
          id="url"
          name="url"
          value={values.url ?? ''}
          placeholder="https://links.example.com"
          {...described('url', errors)}
        />
        <FieldError name="url" messages={errors} />
        <label for="key">Its API key (API sources; used for this import only, never stored)</label>
        <input
          type="password"
          id="key"
          name="key"
          autocomplete="off"
          {...described('key', errors)}
        />
        <FieldError name="key" messages={errors} />
        <label for="on_conflict">When an alias is taken here</label>
        <select id="on_conflict" name="on_conflict" {...described('on_conflict', errors)}>
          <option value="skip" selected={values.on_conflict !== 'rename'}>
            Skip the link
          </option>
          <option value="rename" selected={values.on_conflict === 'rename'}>
            Rename it (alias-2, alias-3…)
          </option>
        </select>
        <FieldError name="on_conflict" messages={errors} />
        <p class="check">
          <input
            type="checkbox"
            id="dry_run"
            name="dry_run"
            value="1"
            checked={values.dry_run ?? true}
          />{' '}
          <label for="dry_run">Dry run: report only, write no link</label>
        </p>
        <FieldError name="dry_run" messages={errors} />
        <button type="submit">Start the import</button>
      </form>
    </section>
  )
}

function ExportPanel() {
  return (
    <section class="panel" aria-labelledby="export-links">
      <h2 id="export-links">Export links</h2>
      <p class="muted small">
        Every link the filters select, as CSV (which any slink imports back, source “CSV”) or as
        JSON. Passwords are never exported.
      </p>
      <form method="get" action="/dashboard/links/export" class="filters" id="export-form">
        <div class="filter">
          <label for="export-format">Format</label>
          <select id="export-format" name="format">
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
          </select>
        </div>
        <div class="filter grow">
          <label for="export-search">Search (title, alias or URL)</label>
          <input type="text" id="export-search" name="search" />
        </div>
        <div class="filter">
          <label for="export-search-by">In</label>
          <select id="export-search-by" name="search_by">
            <option value="title">Title</option>
            <option value="alias">Alias</option>
            <option value="url">URL</option>
          </select>
        </div>
        <div class="filter">
          <label for="export-status">Status</label>
          <select id="export-status" name="status">
            <option value="0">All</option>
            <option value="1">Active</option>
            <option value="2">Expired</option>
            <option value="3">Disabled</option>
          </select>
        </div>
        <div class="filter">
          <button type="submit">Download</button>
        </div>
      </form>
    </section>
  )
}

function StatusText(props: { record: ImportRunRow }) {
  const { record } = props
  const label = { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' }[
    record.status as 'queued' | 'running' | 'done' | 'failed'
  ]
  return <span class={`status status-${record.status}`}>{label ?? record.status}</span>
}

export function importsPage(
  viewer: Viewer,
  input: {
    imports: ImportRunRow[]
    values?: ImportFormValues
    errors?: Record<string, string[]>
  },
): RenderedPage {
  return dashboardPage({
    title: 'Imports',
    section: 'imports',
    viewer,
    children: (
      <>
        <ImportForm csrf={viewer.csrf} values={input.values ?? {}} errors={input.errors ?? {}} />
        <section class="panel" aria-labelledby="your-imports">
          <h2 id="your-imports">Your imports</h2>
          {input.imports.length === 0 ? (
            <p class="muted">No import yet.</p>
          ) : (
            <div class="table-scroll">
              <table id="imports" class="cards">
                <thead>
                  <tr>
                    <th scope="col">Import</th>
                    <th scope="col">Status</th>
                    <th scope="col" class="num">
                      Rows
                    </th>
                    <th scope="col" class="num">
                      Created
                    </th>
                    <th scope="col" class="num">
                      Not created
                    </th>
                    <th scope="col">Started</th>
                  </tr>
                </thead>
                <tbody>
                  {input.imports.map((record) => (
                    <tr key={record.id} id={`import-${record.id}`}>
                      <td>
                        <a href={`/dashboard/imports/${record.id}`}>
                          #{record.id} {record.source}
                        </a>
                        <span class="muted small link-url">
                          {record.origin}
                          {record.dry_run === 1 ? ' · dry run' : ''}
                        </span>
                      </td>
                      <td data-label="Status">
                        <StatusText record={record} />
                      </td>
                      <td class="num" data-label="Rows">
                        {numbers.format(record.total)}
                      </td>
                      <td class="num" data-label="Created">
                        {numbers.format(record.created + record.renamed)}
                      </td>
                      <td class="num" data-label="Not created">
                        {numbers.format(record.total - record.created - record.renamed)}
                      </td>
                      <td class="nowrap" data-label="Started">
                        {new Date(record.created_at).toISOString().slice(0, 16).replace('T', ' ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <ExportPanel />
      </>
    ),
  })
}

/**
 * The status block; while the import runs, htmx asks the page's address for this block alone
 * (a whole page would bring a stylesheet with another page's nonce) and swaps it in.
 */
function StatusPanel(props: { record: ImportRunRow; self: string }) {
  const { record } = props
  const live = running(record)
  const polling = live ? { 'hx-get': props.self, 'hx-trigger': 'every 3s' } : {}
  return (
    <section
      class="panel"
      id="import-status"
      aria-labelledby="import-status-title"
      aria-live="polite"
      {...polling}
      hx-swap="outerHTML"
    >
      <h2 id="import-status-title">
        <StatusText record={record} />
        {record.dry_run === 1 ? ' (dry run: nothing is written but this report)' : ''}
      </h2>
      <p class="muted small">
        {record.source} from {record.origin}; aliases taken here are{' '}
        {record.on_conflict === 'rename' ? 'renamed' : 'skipped'}.
      </p>
      {record.error ? (
        <p class="field-error" id="import-error">
          {record.error}
        </p>
      ) : null}
      <ul class="totals" id="import-counts">
        <li>
          <strong>{numbers.format(record.total)}</strong> rows
        </li>
        {OUTCOMES.map((o) => (
          <li key={o}>
            <strong>{numbers.format(record[o])}</strong> {OUTCOME_LABELS[o].toLowerCase()}
          </li>
        ))}
      </ul>
      {live ? (
        <p>
          Still running. <a href={props.self}>Reload</a> to see its progress.
        </p>
      ) : null}
    </section>
  )
}

/** The status block alone, for htmx's refresh (`HX-Request`). */
export function importStatusFragment(record: ImportRunRow, self: string): string {
  return renderToString(<StatusPanel record={record} self={self} />)
}

export function importPage(
  viewer: Viewer,
  input: {
    record: ImportRunRow
    rows: ImportRowResultRow[]
    total: number
    page: number
    perPage: number
    outcome: Outcome | undefined
  },
): RenderedPage {
  const { record } = input
  const base = `/dashboard/imports/${record.id}`
  const query = (page: number) => {
    const search = new URLSearchParams()
    if (input.outcome) search.set('outcome', input.outcome)
    if (page > 1) search.set('page', String(page))
    const text = search.toString()
    return text ? `${base}?${text}` : base
  }
  const lastPage = Math.max(1, Math.ceil(input.total / input.perPage))
  return dashboardPage({
    title: `Import #${record.id}`,
    section: 'imports',
    viewer,
    children: (
      <>
        <p>
          <a href="/dashboard/imports">All imports</a>
        </p>
        <StatusPanel record={record} self={query(input.page)} />
        <section class="panel" aria-labelledby="import-rows">
          <h2 id="import-rows">Rows</h2>
          <form method="get" action={base} class="filters">
            <div class="filter">
              <label for="outcome">Outcome</label>
              <select id="outcome" name="outcome">
                <option value="" selected={input.outcome === undefined}>
                  Every outcome
                </option>
                {OUTCOMES.map((o) => (
                  <option key={o} value={o} selected={input.outcome === o}>
                    {OUTCOME_LABELS[o]}
                  </option>
                ))}
              </select>
            </div>
            <div class="filter">
              <button type="submit">Show</button>
            </div>
          </form>
          {input.rows.length === 0 ? (
            <p class="muted" id="no-rows">
              No row {input.outcome ? 'with this outcome ' : ''}yet.
            </p>
          ) : (
            <div class="table-scroll">
              <table id="rows" class="cards">
                <caption class="muted small">
                  {numbers.format(input.total)} rows{input.outcome ? ' with this outcome' : ''}, in
                  source order
                </caption>
                <thead>
                  <tr>
                    <th scope="col" class="num">
                      Row
                    </th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Alias</th>
                    <th scope="col">Why</th>
                  </tr>
                </thead>
                <tbody>
                  {input.rows.map((row) => (
                    <tr key={row.line} id={`row-${row.line}`}>
                      <td class="num" data-label="Row">
                        {row.line}
                      </td>
                      <td data-label="Outcome">
                        {OUTCOME_LABELS[row.outcome as Outcome] ?? row.outcome}
                      </td>
                      <td data-label="Alias">{row.alias ?? ''}</td>
                      <td data-label="Why">{row.message ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {lastPage > 1 ? (
            <nav class="pager" aria-label="Pages">
              {input.page > 1 ? (
                <a rel="prev" href={query(input.page - 1)}>
                  Previous
                </a>
              ) : null}
              <span>
                Page {numbers.format(input.page)} of {numbers.format(lastPage)}
              </span>
              {input.page < lastPage ? (
                <a rel="next" href={query(input.page + 1)}>
                  Next
                </a>
              ) : null}
            </nav>
          ) : null}
        </section>
      </>
    ),
  })
}

/** Send with 422: row filters the API would refuse, each with the API's message. */
export function importQueryErrorPage(
  viewer: Viewer,
  id: number,
  messages: Record<string, string[]>,
): RenderedPage {
  return dashboardPage({
    title: `Import #${id}`,
    section: 'imports',
    viewer,
    children: (
      <RefusedFilters
        messages={messages}
        back={`/dashboard/imports/${id}`}
        backText="Show every row"
      />
    ),
  })
}
