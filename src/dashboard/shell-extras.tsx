/**
 * Extras of the signed-in layout that only the dashboard script brings to life: the theme
 * button (hidden until the script shows it) and the keyboard shortcuts dialog (`?`); and the
 * "Shorten this page" bookmarklet of the Account page, which runs on the page being read and
 * opens the Shorten page with that page's address.
 */

/** Cycles the theme: the system's, light, dark. The script writes its text and shows it. */
export function ThemeToggle() {
  return (
    <button
      type="button"
      id="theme-toggle"
      class="secondary-button theme-toggle"
      aria-label="Theme: system"
      title="Theme: system"
      hidden
    >
      <span aria-hidden="true">◐</span>
    </button>
  )
}

export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['/', 'Search links'],
  ['n', 'New link'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this list'],
]

/** Opened by `?`; a closed dialog is not shown, so without the script it is never seen. */
export function ShortcutsDialog() {
  return (
    <dialog id="shortcuts" aria-labelledby="shortcuts-heading">
      <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
      <dl class="shortcut-list">
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" id="shortcuts-close">
          Close
        </button>
      </form>
    </dialog>
  )
}

/**
 * A `javascript:` bookmark that opens this dashboard's Shorten page with the address of the
 * page it is pressed on. It runs on that other page, under that page's rules; the dashboard
 * only reads `?url=`.
 */
export function bookmarkletCode(origin: string): string {
  const target = JSON.stringify(`${origin}/dashboard/shorten?url=`)
  return `javascript:void(location.href=${target}+encodeURIComponent(location.href))`
}

export function Bookmarklet(props: { origin: string }) {
  return (
    <section class="panel" aria-labelledby="bookmarklet-heading" id="bookmarklet">
      <h2 id="bookmarklet-heading">Shorten this page</h2>
      <p>
        Drag this button to your bookmarks bar. On any page, press it to open slink with that page’s
        address filled in, then press Enter.
      </p>
      <p>
        <a class="button bookmarklet" id="bookmarklet-link" href={bookmarkletCode(props.origin)}>
          Shorten with slink
        </a>
      </p>
      <p class="muted small">
        No extension needed. Pressed here, on the dashboard itself, it does nothing.
      </p>
    </section>
  )
}
