/**
 * The Webhooks screens: the list with a create form (the URL and an events picker), the answer
 * that shows a new webhook's signing secret this once, and one webhook's page (why it is off, if
 * the service switched it off; a test event; the deliveries with each attempt's status and a
 * button to send one again).
 */
import type { WebhookRow } from '../db/types.js'
import { EVENT_TYPES } from '../events/types.js'
import type { RenderedPage } from '../pages/layout.js'
import type { FieldMessages } from '../shared/errors.js'
import type { LoggedDelivery } from '../webhooks/store.js'
import { CsrfField, Notice } from './components.js'
import { Checkbox, Errors } from './form-fields.js'
import { dashboardPage, type Viewer } from './shell.js'

const when = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ')

function eventsOf(hook: WebhookRow): string[] {
  return JSON.parse(hook.events) as string[]
}

function HookState(props: { hook: WebhookRow }) {
  const { hook } = props
  if (hook.active) return <span class="badge status-active">Active</span>
  return (
    <>
      <span class="badge status-disabled">Off</span>
      {hook.disabled_reason ? (
        <span class="hook-reason"> {hook.disabled_reason}</span>
      ) : (
        <span class="hook-reason"> Switched off by its owner.</span>
      )}
    </>
  )
}

export function webhooksPage(
  viewer: Viewer,
  input: {
    hooks: WebhookRow[]
    values?: { url: string; events: string[] }
    errors?: FieldMessages
    notice?: string | null
  },
): RenderedPage {
  const errors = input.errors ?? {}
  const chosen = new Set(input.values?.events ?? [])
  return dashboardPage({
    title: 'Webhooks',
    section: 'webhooks',
    viewer,
    children: (
      <>
        <Notice text={input.notice} />
        <section class="panel" aria-labelledby="hooks-heading">
          <h2 id="hooks-heading">Your webhooks</h2>
          {input.hooks.length === 0 ? (
            <p id="no-hooks">No webhooks yet. Add one below to be told when your links change.</p>
          ) : (
            <table id="webhooks" class="cards">
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {input.hooks.map((hook) => (
                  <tr key={hook.id} id={`webhook-${hook.id}`}>
                    <td>
                      <a href={`/dashboard/webhooks/${hook.id}`}>{hook.url}</a>
                    </td>
                    <td data-label="Events">{eventsOf(hook).join(', ')}</td>
                    <td data-label="State">
                      <HookState hook={hook} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section class="panel" aria-labelledby="new-hook-heading">
          <h2 id="new-hook-heading">New webhook</h2>
          <form method="post" action="/dashboard/webhooks" novalidate>
            <CsrfField token={viewer.csrf} />
            <label for="url">URL</label>
            <input
              id="url"
              name="url"
              type="url"
              value={input.values?.url ?? ''}
              aria-invalid={errors.url ? 'true' : undefined}
              aria-describedby={errors.url ? 'url-error' : undefined}
            />
            <Errors id="url" messages={errors.url} />
            <fieldset class="choices" aria-describedby={errors.events ? 'events-error' : undefined}>
              <legend>Events</legend>
              <Checkbox
                id="event-all"
                name="events[]"
                value="*"
                label="Every event"
                checked={chosen.has('*')}
              />
              <div class="event-grid">
                {EVENT_TYPES.map((type) => (
                  <Checkbox
                    key={type}
                    id={`event-${type.replace('.', '-')}`}
                    name="events[]"
                    value={type}
                    label={type}
                    checked={chosen.has(type)}
                  />
                ))}
              </div>
            </fieldset>
            <Errors id="events" messages={errors.events} />
            <p class="actions">
              <button type="submit" id="create-webhook">
                Add webhook
              </button>
            </p>
          </form>
        </section>
      </>
    ),
  })
}

/** Send with 201: the new webhook and its signing secret, shown only here. */
export function newWebhookPage(viewer: Viewer, hook: WebhookRow): RenderedPage {
  return dashboardPage({
    title: 'Webhook added',
    section: 'webhooks',
    viewer,
    children: (
      <section class="panel">
        <p>
          Deliveries to <strong>{hook.url}</strong> are signed with this secret. Copy it now: it is
          not shown again.
        </p>
        <label for="webhook-secret">Signing secret</label>
        <input id="webhook-secret" class="key" readonly value={hook.secret} />
        <p class="actions">
          <a class="button" href={`/dashboard/webhooks/${hook.id}`}>
            Open the webhook
          </a>
          <a class="button secondary" href="/dashboard/webhooks">
            All webhooks
          </a>
        </p>
      </section>
    ),
  })
}

export function webhookPage(
  viewer: Viewer,
  input: { hook: WebhookRow; deliveries: LoggedDelivery[]; notice: string | null },
): RenderedPage {
  const { hook } = input
  const base = `/dashboard/webhooks/${hook.id}`
  return dashboardPage({
    title: 'Webhook',
    section: 'webhooks',
    viewer,
    children: (
      <>
        <Notice text={input.notice} />
        <section class="panel">
          <dl>
            <dt>URL</dt>
            <dd id="webhook-url">{hook.url}</dd>
            <dt>Events</dt>
            <dd>{eventsOf(hook).join(', ')}</dd>
            <dt>State</dt>
            <dd id="webhook-state">
              <HookState hook={hook} />
            </dd>
          </dl>
          <form method="post" action={`${base}/test`} class="actions">
            <CsrfField token={viewer.csrf} />
            <button type="submit" id="send-test">
              Send a test event
            </button>
            <a class="button secondary" href="/dashboard/webhooks">
              All webhooks
            </a>
          </form>
        </section>
        <section class="panel" aria-labelledby="deliveries-heading">
          <h2 id="deliveries-heading">Deliveries</h2>
          {input.deliveries.length === 0 ? (
            <p id="no-deliveries">Nothing sent yet.</p>
          ) : (
            <table id="deliveries" class="cards">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {input.deliveries.map(({ delivery, log }) => (
                  <tr key={delivery.id} id={`delivery-${delivery.id}`}>
                    <td>
                      {delivery.type}
                      <span class="muted small"> {when(delivery.created_at)} UTC</span>
                    </td>
                    <td data-label="Status">
                      <span
                        class={`badge status-${delivery.status === 'delivered' ? 'active' : delivery.status === 'failed' ? 'expired' : 'disabled'}`}
                      >
                        {delivery.status}
                      </span>
                    </td>
                    <td data-label="Attempts">
                      {log.length === 0 ? (
                        'None yet'
                      ) : (
                        <ol class="attempts">
                          {log.map((a) => (
                            <li key={a.id}>
                              {when(a.attempted_at)}:{' '}
                              {a.status_code === null
                                ? (a.error ?? 'no answer')
                                : `HTTP ${a.status_code}`}
                              {a.duration_ms === null ? '' : ` (${a.duration_ms} ms)`}
                            </li>
                          ))}
                        </ol>
                      )}
                    </td>
                    <td>
                      <form method="post" action={`${base}/deliveries/${delivery.id}/resend`}>
                        <CsrfField token={viewer.csrf} />
                        <button
                          type="submit"
                          class="secondary-button small-button"
                          aria-label={`Send again: delivery ${delivery.id}`}
                        >
                          Send again
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </>
    ),
  })
}
