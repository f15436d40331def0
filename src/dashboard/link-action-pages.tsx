/**
 * The pages that ask before links are deleted (one from its row, several from the bulk
 * actions), and the answer to a bulk action that cannot be done. They work without
 * JavaScript: a plain POST form to confirm, a link to go back.
 */
import type { LinkRecord } from '../links/schema.js'
import type { RenderedPage } from '../pages/layout.js'
import { CsrfField } from './components.js'
import { dashboardPage, type Viewer } from './shell.js'

function LinkList(props: { links: LinkRecord[] }) {
  return (
    <ul id="confirm-links">
      {props.links.map((link) => (
        <li key={link.id}>
          <strong>{link.short_url}</strong> <span class="muted small">→ {link.url}</span>
        </li>
      ))}
    </ul>
  )
}

export function deleteConfirmPage(viewer: Viewer, link: LinkRecord): RenderedPage {
  return dashboardPage({
    title: 'Delete this link?',
    section: 'links',
    viewer,
    children: (
      <section class="panel">
        <LinkList links={[link]} />
        <p>Visitors of the short link will get “not found”. Its statistics are deleted too.</p>
        <form method="post" action={`/dashboard/links/${link.id}/delete`} class="actions">
          <CsrfField token={viewer.csrf} />
          <button type="submit" class="danger" id="confirm-delete">
            Delete the link
          </button>
          <a class="button secondary" href="/dashboard/links">
            Keep it
          </a>
        </form>
      </section>
    ),
  })
}

export function bulkConfirmPage(
  viewer: Viewer,
  input: { back: string; links: LinkRecord[]; problem?: string },
): RenderedPage {
  const count = input.links.length
  return dashboardPage({
    title: input.problem ? 'Nothing was changed' : `Delete ${count} link${count === 1 ? '' : 's'}?`,
    section: 'links',
    viewer,
    children: (
      <section class="panel">
        {input.problem ? (
          <p class="error" role="alert" id="bulk-problem">
            {input.problem}
          </p>
        ) : (
          <>
            <LinkList links={input.links} />
            <p>Visitors of these short links will get “not found”. Their statistics go too.</p>
            <form method="post" action="/dashboard/links/bulk" class="actions">
              <CsrfField token={viewer.csrf} />
              <input type="hidden" name="action" value="delete" />
              <input type="hidden" name="confirm" value="1" />
              <input type="hidden" name="_back" value={input.back} />
              {input.links.map((link) => (
                <input key={link.id} type="hidden" name="ids[]" value={String(link.id)} />
              ))}
              <button type="submit" class="danger" id="confirm-delete">
                Delete {count === 1 ? 'the link' : `${count} links`}
              </button>
            </form>
          </>
        )}
        <p>
          <a href={input.back}>Back to the links</a>
        </p>
      </section>
    ),
  })
}
