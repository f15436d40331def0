/**
 * The confirmation asked before a user is made an administrator: what the role allows, and a
 * button that makes the change (the same form with `confirm=1`) beside a way back.
 */
import type { UserRow } from '../db/types.js'
import type { RenderedPage } from '../pages/layout.js'
import { CsrfField } from './components.js'
import { dashboardPage, type Viewer } from './shell.js'

export function makeAdminConfirmPage(viewer: Viewer, user: UserRow): RenderedPage {
  return dashboardPage({
    title: 'Make this user an administrator?',
    section: 'admin',
    viewer,
    children: (
      <section class="panel">
        <p>
          <strong id="confirm-user">{user.name}</strong> ({user.email}) will be able to add, disable
          and promote users, make sign-in links for them, and manage the domains of everyone.
        </p>
        <form method="post" action={`/dashboard/admin/users/${user.id}/role`} class="actions">
          <CsrfField token={viewer.csrf} />
          <input type="hidden" name="role" value="admin" />
          <input type="hidden" name="confirm" value="1" />
          <button type="submit" id="confirm-make-admin">
            Make {user.name} an administrator
          </button>
          <a class="button secondary" href="/dashboard/admin">
            Keep them a user
          </a>
        </form>
      </section>
    ),
  })
}
