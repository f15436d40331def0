/**
 * The parameter a QR code adds to the short URL it encodes, so a visit through the code can be
 * told from one through the link: exactly `qr=1`. The redirect drops it from the query it
 * forwards and counts the visit as a scan (statistics name `source`, value `qr`). Any other
 * `qr` parameter (`qr=0`, `qr=yes`, `QR=1`) is forwarded like every other parameter.
 */
export const SCAN_FLAG = 'qr=1'

/** The short URL a QR code encodes: `…/alias?qr=1`. */
export function scanUrl(shortUrl: string): string {
  return `${shortUrl}${shortUrl.includes('?') ? '&' : '?'}${SCAN_FLAG}`
}
