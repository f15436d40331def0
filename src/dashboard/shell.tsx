/**
 * The signed-in layout: a skip link, the top bar (brand, navigation, the theme button, who is
 * signed in, sign out), the page's content and the keyboard shortcuts dialog. On a phone the
 * navigation folds into a "Menu" (`<details>`, so it opens without JavaScript); the current page
 * is marked with `aria-current`.
 */
import type { ComponentChildren } from 'preact'
import type { RenderedPage } from '../pages/layout.js'
import type { SafeHtml } from '../pages/html.js'
import { CsrfField } from './components.js'
import { renderDocument } from './document.js'
import { ShortcutsDialog, ThemeToggle } from './shell-extras.js'

export type Section =
  | 'overview'
  | 'links'
  | 'pixels'
  | 'spaces'
  | 'tags'
  | 'domains'
  | 'webhooks'
  | 'imports'
  | 'account'
  | 'admin'

export interface Viewer {
  name: string
  email: string
  admin: boolean
  csrf: string
}

const SECTIONS: { id: Section; label: string; href: string; admin?: boolean }[] = [
  { id: 'overview', label: 'Overview', href: '/dashboard' },
  { id: 'links', label: 'Links', href: '/dashboard/links' },
  { id: 'pixels', label: 'Pixels', href: '/dashboard/pixels' },
  { id: 'spaces', label: 'Spaces', href: '/dashboard/spaces' },
  { id: 'tags', label: 'Tags', href: '/dashboard/tags' },
  { id: 'domains', label: 'Domains', href: '/dashboard/domains' },
  { id: 'webhooks', label: 'Webhooks', href: '/dashboard/webhooks' },
  { id: 'imports', label: 'Imports', href: '/dashboard/imports' },
  { id: 'account', label: 'Account', href: '/dashboard/account' },
  { id: 'admin', label: 'Admin', href: '/dashboard/admin', admin: true },
]

/** The section a dashboard path belongs to (the Overview for one it does not know). */
export function sectionOf(url: string): Section {
  const first = url.split(/[?#]/)[0]!.split('/')[2] ?? ''
  return SECTIONS.find((s) => s.href === `/dashboard/${first}`)?.id ?? 'overview'
}

/** Where a section starts and what it is called, for a way back to it. */
export function sectionHome(section: Section): { label: string; href: string } {
  const found = SECTIONS.find((s) => s.id === section) ?? SECTIONS[0]!
  return { label: found.label, href: found.href }
}

export function dashboardPage(input: {
  title: string
  section: Section
  viewer: Viewer
  /** `https`: the page may show images from any https URL (the link form's social card). */
  images?: 'https'
  children: ComponentChildren
}): RenderedPage {
  const { viewer } = input
  const sections = SECTIONS.filter((s) => !s.admin || viewer.admin)
  return renderDocument({
    title: input.title,
    shape: 'app',
    ...(input.images ? { images: input.images } : {}),
    children: (
      <>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="topbar">
          <div class="inner">
            <a class="brand" href="/dashboard">
              slink
            </a>
            <nav aria-label="Dashboard" class="nav-wide">
              <ul class="nav">
                {sections.map((s) => (
                  <li key={s.id}>
                    <a
                      href={s.href}
                      aria-current={s.id === input.section ? 'page' : undefined}
                      id={`nav-${s.id}`}
                    >
                      {s.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            {/* The same navigation, folded into a menu on a phone; opens without JavaScript. */}
            <details class="nav-fold" id="nav-fold">
              <summary>Menu</summary>
              <nav aria-label="Dashboard menu">
                <ul class="nav">
                  {sections.map((s) => (
                    <li key={s.id}>
                      <a href={s.href} aria-current={s.id === input.section ? 'page' : undefined}>
                        {s.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            </details>
            <div class="who">
              <ThemeToggle />
              <span id="viewer-name" title={viewer.email}>
                {viewer.name}
              </span>
              <form method="post" action="/logout">
                <CsrfField token={viewer.csrf} />
                <button type="submit" class="secondary-button">
                  Sign out
                </button>
              </form>
            </div>
          </div>
        </header>
        <main id="content" tabIndex={-1}>
          <h1>{input.title}</h1>
          {input.children}
        </main>
        <ShortcutsDialog />
      </>
    ),
  })
}

/** Markup built by src/pages/ helpers that escape everything (the SVG charts). */
export function Trusted(props: { html: SafeHtml; class?: string }) {
  return <div class={props.class} dangerouslySetInnerHTML={{ __html: props.html.text }} />
}
