/**
 * The dashboard's pages for people who are not signed in: the home page of the default domain,
 * sign-in, the one-time password page, and the notices (forbidden, too many attempts, a link
 * that has expired or was used).
 */
import type { RenderedPage } from '../pages/layout.js'
import { waitText } from '../pages/notice-pages.js'
import { Card, CsrfField, TextField } from './components.js'
import { renderDocument } from './document.js'

export function homePage(input: { signedIn: boolean }): RenderedPage {
  return renderDocument({
    title: 'slink',
    shape: 'card',
    children: (
      <Card title="slink">
        <p>A link shortener: short links, their statistics, tracking pixels and spaces.</p>
        <div class="actions">
          {input.signedIn ? (
            <a class="button" href="/dashboard">
              Open the dashboard
            </a>
          ) : (
            <a class="button" href="/login">
              Sign in
            </a>
          )}
          <a class="button secondary" href="/api/docs">
            API documentation
          </a>
        </div>
      </Card>
    ),
  })
}

export const SIGN_IN_FAILED = 'The email or password is not correct.'

export function loginPage(input: {
  csrf: string
  email?: string
  error?: string | null
  notice?: string | null
}): RenderedPage {
  return renderDocument({
    title: 'Sign in',
    shape: 'card',
    children: (
      <Card title="Sign in">
        {input.notice ? <p class="notice">{input.notice}</p> : null}
        {input.error ? (
          <p class="error" role="alert">
            {input.error}
          </p>
        ) : null}
        <form method="post" action="/login">
          <CsrfField token={input.csrf} />
          <TextField
            name="email"
            label="Email"
            type="email"
            value={input.email ?? ''}
            autocomplete="username"
            required
            autofocus={!input.email}
          />
          <TextField
            name="password"
            label="Password"
            type="password"
            autocomplete="current-password"
            required
            autofocus={Boolean(input.email)}
          />
          <div class="actions">
            <button type="submit">Sign in</button>
          </div>
        </form>
        <p class="muted small">
          No password yet? Ask an administrator for a one-time link, or run{' '}
          <code>slink user reset-link --email you@example.com</code> on the server.
        </p>
      </Card>
    ),
  })
}

export function setPasswordPage(input: {
  token: string
  csrf: string
  email: string
  errors?: { password?: string; password_confirmation?: string }
}): RenderedPage {
  return renderDocument({
    title: 'Set your password',
    shape: 'card',
    children: (
      <Card title="Set your password">
        <p>
          For <strong>{input.email}</strong>. This link works once.
        </p>
        <form method="post" action={`/password/${input.token}`}>
          <CsrfField token={input.csrf} />
          <input type="text" name="email" value={input.email} autocomplete="username" hidden />
          <TextField
            name="password"
            label="New password (at least 8 characters)"
            type="password"
            autocomplete="new-password"
            required
            autofocus
            error={input.errors?.password ?? null}
          />
          <TextField
            name="password_confirmation"
            label="New password again"
            type="password"
            autocomplete="new-password"
            required
            error={input.errors?.password_confirmation ?? null}
          />
          <div class="actions">
            <button type="submit">Set password and sign in</button>
          </div>
        </form>
      </Card>
    ),
  })
}

function notice(title: string, message: string, link?: { href: string; text: string }) {
  return renderDocument({
    title,
    shape: 'card',
    children: (
      <Card title={title}>
        <p>{message}</p>
        {link ? (
          <p>
            <a href={link.href}>{link.text}</a>
          </p>
        ) : null}
      </Card>
    ),
  })
}

/** Send with 410. */
export function passwordLinkUnusablePage(): RenderedPage {
  return notice(
    'Link no longer valid',
    'This one-time link has expired or has been used, or a newer link or a password change has cancelled it. Ask for a new one.',
    { href: '/login', text: 'Sign in' },
  )
}

/** Send with 403: the one-time link of a disabled user (no password is set, no session made). */
export function passwordLinkDisabledPage(): RenderedPage {
  return notice(
    'Account disabled',
    'This account is disabled, so its one-time link cannot be used. Ask an administrator to enable the account and send a new link.',
  )
}

/** Send with 403: a form without its CSRF token, or with a wrong one. */
export function csrfFailedPage(): RenderedPage {
  return notice(
    'Form expired',
    'This form was not accepted because its security token is missing or out of date. Nothing was changed. Go back, reload the page and try again.',
  )
}

/** Send with 403. */
export function forbiddenPage(): RenderedPage {
  return notice('Not allowed', 'Your account does not have access to this page.', {
    href: '/dashboard',
    text: 'Back to the dashboard',
  })
}

/** Send with 429 and `Retry-After`. */
export function tooManySignInsPage(retryAfterSeconds: number): RenderedPage {
  return notice(
    'Too many attempts',
    `Too many sign-in attempts failed. Please try again in ${waitText(retryAfterSeconds)}.`,
    { href: '/login', text: 'Sign in' },
  )
}
