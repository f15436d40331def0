/**
 * The administrators' pages: the users with what can be done to each (every action a small
 * POST form, so it works without JavaScript), the new-user form, and the page that shows a
 * one-time set-password link.
 */
import type { UserRow } from '../db/types.js'
import type { RenderedPage } from '../pages/layout.js'
import type { FieldMessages } from '../shared/errors.js'
import { USER_ROLES } from '../users/schema.js'
import { CsrfField, Notice, TextField } from './components.js'
import { RetentionNote } from './retention-note.js'
import type { Form } from './context.js'
import { inPeoplesWords, labelled } from './messages.js'
import { dashboardPage, type Viewer } from './shell.js'

/** The new user form's labels, which its messages name. */
const USER_NAMING = labelled({ email: 'Email', name: 'Name', role: 'Role' })

function status(user: UserRow): string {
  if (user.disabled) return 'disabled'
  return user.password_hash === null ? 'no password yet' : 'active'
}

function Action(props: {
  csrf: string
  action: string
  label: string
  hidden?: string
  role?: string
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <CsrfField token={props.csrf} />
      {props.role ? <input type="hidden" name="role" value={props.role} /> : null}
      <button type="submit" class="secondary-button small-button">
        {props.label}
        {props.hidden ? <span class="visually-hidden"> {props.hidden}</span> : null}
      </button>
    </form>
  )
}

export function adminPage(
  viewer: Viewer,
  input: { users: UserRow[]; selfId: number; notice: string | null; clickLogDays: number | null },
): RenderedPage {
  return dashboardPage({
    title: 'Admin',
    section: 'admin',
    viewer,
    children: (
      <>
        <Notice text={input.notice} />
        <p class="row-actions">
          <a class="button" href="/dashboard/admin/users/new" id="new-user">
            New user
          </a>
          <a class="button secondary" href="/dashboard/admin/domains" id="global-domains">
            Global domains
          </a>
        </p>
        <section class="panel" aria-labelledby="users-heading">
          <h2 id="users-heading">Users</h2>
          <div class="table-scroll">
            <table id="users" class="cards">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {input.users.map((u) => {
                  const base = `/dashboard/admin/users/${u.id}`
                  const self = u.id === input.selfId
                  return (
                    <tr key={u.id} id={`user-${u.id}`}>
                      <td>{u.name}</td>
                      <td data-label="Email">{u.email}</td>
                      <td data-label="Role">{u.role}</td>
                      <td data-label="Status">{status(u)}</td>
                      <td>
                        <div class="row-actions wrap">
                          {self ? (
                            <span class="muted">You</span>
                          ) : (
                            <>
                              {u.disabled ? (
                                <Action
                                  csrf={viewer.csrf}
                                  action={`${base}/enable`}
                                  label="Enable"
                                  hidden={u.email}
                                />
                              ) : (
                                <Action
                                  csrf={viewer.csrf}
                                  action={`${base}/disable`}
                                  label="Disable"
                                  hidden={u.email}
                                />
                              )}
                              {u.role === 'admin' ? (
                                <Action
                                  csrf={viewer.csrf}
                                  action={`${base}/role`}
                                  role="user"
                                  label="Make user"
                                  hidden={u.email}
                                />
                              ) : (
                                <Action
                                  csrf={viewer.csrf}
                                  action={`${base}/role`}
                                  role="admin"
                                  label="Make admin"
                                  hidden={u.email}
                                />
                              )}
                            </>
                          )}
                          <Action
                            csrf={viewer.csrf}
                            action={`${base}/reset-link`}
                            label="New password link"
                            hidden={u.email}
                          />
                        </div>
                      </td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        </section>
        <RetentionNote clickLogDays={input.clickLogDays} />
      </>
    ),
  })
}

export function newUserPage(
  viewer: Viewer,
  input: { values: Form; errors?: FieldMessages },
): RenderedPage {
  const errors = inPeoplesWords(input.errors ?? {}, USER_NAMING)
  const role = input.values.role ?? 'user'
  const first = (name: string) => errors[name]?.join(' ') ?? null
  return dashboardPage({
    title: 'New user',
    section: 'admin',
    viewer,
    children: (
      <section class="panel">
        {Object.keys(errors).length > 0 ? (
          <p class="field-error" role="alert" id="form-errors">
            Nothing was saved: please correct the fields marked below.
          </p>
        ) : null}
        <p class="muted small">
          The new user gets a one-time link to set their password (valid 24 hours); they make their
          API keys on their Account page.
        </p>
        <form method="post" action="/dashboard/admin/users" novalidate>
          <CsrfField token={viewer.csrf} />
          <TextField
            name="email"
            label="Email"
            type="email"
            value={input.values.email ?? ''}
            error={first('email')}
          />
          <TextField
            name="name"
            label="Name"
            value={input.values.name ?? ''}
            error={first('name')}
          />
          <label for="role">Role</label>
          <select
            id="role"
            name="role"
            aria-invalid={errors.role ? 'true' : undefined}
            aria-describedby={errors.role ? 'role-error' : undefined}
          >
            {USER_ROLES.map((r) => (
              <option key={r} value={r} selected={r === role}>
                {r === 'admin' ? 'Administrator' : 'User'}
              </option>
            ))}
          </select>
          {errors.role ? (
            <p class="field-error" id="role-error">
              {errors.role.join(' ')}
            </p>
          ) : null}
          <div class="actions">
            <button type="submit">Create user</button>
            <a class="button secondary" href="/dashboard/admin">
              Cancel
            </a>
          </div>
        </form>
      </section>
    ),
  })
}

/** The answer to a new user or a new link: the link is shown here only (stored as a hash). */
export function passwordLinkPage(
  viewer: Viewer,
  input: { user: UserRow; link: string; created: boolean },
): RenderedPage {
  return dashboardPage({
    title: input.created ? 'User created' : 'New password link',
    section: 'admin',
    viewer,
    children: (
      <section class="panel">
        <p>
          Send this one-time link to <strong id="link-email">{input.user.email}</strong>: it lets
          them set a password and sign in, once, within 24 hours. It is shown only here.
        </p>
        <p>
          <label for="password-link">One-time link</label>
          <input id="password-link" type="text" readonly value={input.link} class="key" />
        </p>
        <p>
          <a href="/dashboard/admin">Back to the users</a>
        </p>
      </section>
    ),
  })
}
