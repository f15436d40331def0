/** The Account page (who you are, changing your password) and the Admin page. */
import type { UserRow } from '../db/types.js'
import type { RenderedPage } from '../pages/layout.js'
import { CsrfField, TextField } from './components.js'
import { dashboardPage, type Viewer } from './shell.js'

export interface PasswordChangeErrors {
  current_password?: string
  password?: string
  password_confirmation?: string
}

export function accountPage(
  viewer: Viewer,
  user: UserRow,
  options: { errors?: PasswordChangeErrors; notice?: string | null } = {},
): RenderedPage {
  const errors = options.errors ?? {}
  return dashboardPage({
    title: 'Account',
    section: 'account',
    viewer,
    children: (
      <>
        {options.notice ? (
          <p class="notice" role="status">
            {options.notice}
          </p>
        ) : null}
        <section class="panel" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Profile</h2>
          <dl>
            <dt>Name</dt>
            <dd id="account-name">{user.name}</dd>
            <dt>Email</dt>
            <dd id="account-email">{user.email}</dd>
            <dt>Time zone</dt>
            <dd>{user.timezone}</dd>
            <dt>Role</dt>
            <dd>{user.role}</dd>
          </dl>
        </section>
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
      </>
    ),
  })
}

export function adminPage(viewer: Viewer, users: UserRow[]): RenderedPage {
  return dashboardPage({
    title: 'Admin',
    section: 'admin',
    viewer,
    children: (
      <section class="panel" aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        <div class="table-scroll">
          <table id="users">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>{u.name}</td>
                  <td>{u.email}</td>
                  <td>{u.role}</td>
                  <td>
                    {u.disabled
                      ? 'disabled'
                      : u.password_hash === null
                        ? 'no password yet'
                        : 'active'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    ),
  })
}
