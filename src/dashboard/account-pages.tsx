/**
 * The Account page (profile, API keys, password) and the pages of a new key and of revoking one.
 */
import type { ApiKeyRow, UserRow } from '../db/types.js'
import type { FieldMessages } from '../shared/errors.js'
import type { Form } from './context.js'
import type { RenderedPage } from '../pages/layout.js'
import { CsrfField, Notice, TextField } from './components.js'
import { RetentionNote } from './retention-note.js'
import { inPeoplesWords, labelled } from './messages.js'
import { dashboardPage, type Viewer } from './shell.js'
import { Bookmarklet } from './shell-extras.js'

export interface PasswordChangeErrors {
  current_password?: string
  password?: string
  password_confirmation?: string
}

export interface AccountPageInput {
  keys: ApiKeyRow[]
  timeZones: readonly string[]
  /** CLICK_LOG_DAYS: how long raw clicks are kept (null: for ever). */
  clickLogDays: number | null
  notice?: string | null
  /** A failed password change. */
  errors?: PasswordChangeErrors
  /** A failed profile change, with what was typed. */
  profile?: { values: Form; errors: FieldMessages }
  /** A failed key creation, with what was typed. */
  newKey?: { values: Form; errors: FieldMessages }
  /** The dashboard's origin, for the bookmarklet. */
  origin: string
}

/** The labels of the profile and key forms, which their messages name. */
const ACCOUNT_NAMING = labelled({
  name: 'Name',
  email: 'Email',
  timezone: 'Time zone',
  key_name: "New key's name",
})

const when = (ms: number | null) =>
  ms === null ? 'Never' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC'

function firstOf(errors: FieldMessages | undefined, name: string): string | null {
  return errors?.[name]?.join(' ') ?? null
}

export function accountPage(viewer: Viewer, user: UserRow, input: AccountPageInput): RenderedPage {
  const errors = input.errors ?? {}
  const profile = input.profile?.values ?? {}
  const profileErrors = input.profile && inPeoplesWords(input.profile.errors, ACCOUNT_NAMING)
  const keyErrors = input.newKey && inPeoplesWords(input.newKey.errors, ACCOUNT_NAMING)
  const zone = profile.timezone ?? user.timezone
  const zones = input.timeZones.includes(zone) ? input.timeZones : [zone, ...input.timeZones]
  return dashboardPage({
    title: 'Account',
    section: 'account',
    viewer,
    children: (
      <>
        <Notice text={input.notice} />
        <section class="panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Profile</h2>
          <p class="muted small">
            Role: <span id="account-role">{user.role}</span>
          </p>
          <form method="post" action="/dashboard/account/profile" novalidate>
            <CsrfField token={viewer.csrf} />
            <TextField
              name="name"
              label="Name"
              value={profile.name ?? user.name}
              autocomplete="name"
              required
              error={firstOf(profileErrors, 'name')}
            />
            <TextField
              name="email"
              label="Email"
              type="email"
              value={profile.email ?? user.email}
              autocomplete="email"
              required
              error={firstOf(profileErrors, 'email')}
            />
            <label for="timezone">Time zone</label>
            <select
              id="timezone"
              name="timezone"
              aria-invalid={profileErrors?.timezone ? 'true' : undefined}
              aria-describedby={profileErrors?.timezone ? 'timezone-error' : undefined}
            >
              {zones.map((z) => (
                <option key={z} value={z} selected={z === zone}>
                  {z}
                </option>
              ))}
            </select>
            {profileErrors?.timezone ? (
              <p class="field-error" id="timezone-error">
                {profileErrors.timezone.join(' ')}
              </p>
            ) : null}
            <div class="actions">
              <button type="submit">Save profile</button>
            </div>
          </form>
        </section>
        <section class="panel" aria-labelledby="keys-heading">
          <h2 id="keys-heading">API keys</h2>
          <p class="muted small">
            Keys let programs use the API as you (<a href="/api/docs">API documentation</a>). A key
            is shown in full only once, when it is made.
          </p>
          {input.keys.length === 0 ? (
            <p id="no-keys">You have no API key.</p>
          ) : (
            <div class="table-scroll">
              <table id="keys" class="cards">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Starts with</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {input.keys.map((k) => (
                    <tr key={k.id} id={`key-${k.id}`}>
                      <td>{k.name}</td>
                      <td data-label="Starts with">
                        <code>{k.prefix}…</code>
                      </td>
                      <td class="nowrap" data-label="Created">
                        {when(k.created_at)}
                      </td>
                      <td class="nowrap" data-label="Last used">
                        {when(k.last_used_at === null ? null : Number(k.last_used_at))}
                      </td>
                      <td>
                        <a href={`/dashboard/account/keys/${k.id}/revoke`}>
                          Revoke<span class="visually-hidden"> {k.name}</span>
                        </a>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <form method="post" action="/dashboard/account/keys" novalidate>
            <CsrfField token={viewer.csrf} />
            <TextField
              name="key_name"
              label="New key's name (up to 64 characters)"
              value={input.newKey?.values.key_name ?? ''}
              error={firstOf(keyErrors, 'key_name')}
            />
            <div class="actions">
              <button type="submit">Create API key</button>
            </div>
          </form>
        </section>
        <Bookmarklet origin={input.origin} />
        <section class="panel" aria-labelledby="password-heading">
          <h2 id="password-heading">Change password</h2>
          <p class="muted small">Changing it signs you out everywhere else.</p>
          <form method="post" action="/dashboard/account/password">
            <CsrfField token={viewer.csrf} />
            <input type="text" name="email" value={user.email} autocomplete="username" hidden />
            <TextField
              name="current_password"
              label="Current password"
              type="password"
              autocomplete="current-password"
              required
              error={errors.current_password ?? null}
            />
            <TextField
              name="password"
              label="New password (at least 8 characters)"
              type="password"
              autocomplete="new-password"
              required
              error={errors.password ?? null}
            />
            <TextField
              name="password_confirmation"
              label="New password again"
              type="password"
              autocomplete="new-password"
              required
              error={errors.password_confirmation ?? null}
            />
            <div class="actions">
              <button type="submit">Change password</button>
            </div>
          </form>
        </section>
        <RetentionNote clickLogDays={input.clickLogDays} />
      </>
    ),
  })
}

/** The answer to a new key: the only time the full key is shown. */
export function newKeyPage(viewer: Viewer, name: string, key: string): RenderedPage {
  return dashboardPage({
    title: 'New API key',
    section: 'account',
    viewer,
    children: (
      <section class="panel" aria-labelledby="key-heading">
        <h2 id="key-heading">{name}</h2>
        <p>
          Copy this key now: it is shown only this once. Send it as{' '}
          <code>Authorization: Bearer &lt;key&gt;</code>.
        </p>
        <p>
          <label for="new-key">Your new API key</label>
          <input id="new-key" type="text" readonly value={key} class="key" />
        </p>
        <p>
          <a href="/dashboard/account">Back to your account</a>
        </p>
      </section>
    ),
  })
}

export function revokeKeyPage(viewer: Viewer, key: ApiKeyRow): RenderedPage {
  return dashboardPage({
    title: 'Revoke API key',
    section: 'account',
    viewer,
    children: (
      <section class="panel">
        <p>
          Revoke the key <strong id="revoke-name">{key.name}</strong> (<code>{key.prefix}…</code>
          )? Programs using it stop working at once. This cannot be undone.
        </p>
        <form method="post" action={`/dashboard/account/keys/${key.id}/revoke`}>
          <CsrfField token={viewer.csrf} />
          <div class="actions">
            <button type="submit" class="danger">
              Revoke key
            </button>
            <a class="button secondary" href="/dashboard/account">
              Keep it
            </a>
          </div>
        </form>
      </section>
    ),
  })
}
