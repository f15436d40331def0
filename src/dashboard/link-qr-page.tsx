/**
 * The QR code of one of the user's links: the image (from the dashboard's own `qr.svg` route,
 * an image of this origin, which the CSP allows) and downloads as SVG and as PNG in three sizes.
 */
import { qrFilename } from '../links/qr.js'
import type { RenderedPage } from '../pages/layout.js'
import { LinkHead, type StatsLink } from './link-stats-page.js'
import { dashboardPage, type Viewer } from './shell.js'

/** The PNG sizes offered for download (any size from 64 to 1024 works in the address). */
export const QR_DOWNLOAD_SIZES = [256, 512, 1024] as const

export function linkQrPage(viewer: Viewer, link: StatsLink): RenderedPage {
  const base = `/dashboard/links/${link.id}`
  return dashboardPage({
    title: 'QR code',
    section: 'links',
    viewer,
    children: (
      <>
        <LinkHead link={link} />
        <section class="panel" aria-labelledby="qr-heading">
          <h2 id="qr-heading">Scan to open the short link</h2>
          <img
            class="qr-image"
            id="qr-image"
            src={`${base}/qr.svg`}
            width={256}
            height={256}
            alt={`QR code of ${link.shortUrl}`}
          />
          <h2>Download</h2>
          <ul class="downloads">
            <li>
              <a id="download-svg" href={`${base}/qr.svg`} download={qrFilename(link.alias, 'svg')}>
                SVG (vector, any size)
              </a>
            </li>
            {QR_DOWNLOAD_SIZES.map((size) => (
              <li key={size}>
                <a
                  id={`download-png-${size}`}
                  href={`${base}/qr.png?size=${size}`}
                  download={qrFilename(`${link.alias}-${size}`, 'png')}
                >
                  PNG, {size} × {size} pixels
                </a>
              </li>
            ))}
          </ul>
        </section>
        <p class="actions">
          <a class="button secondary" href={`${base}/stats`}>
            Statistics
          </a>
          <a class="button secondary" href="/dashboard/links">
            All links
          </a>
        </p>
      </>
    ),
  })
}
