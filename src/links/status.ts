/** A link's status: disabled, else expired (past its end, or out of clicks), else active. */
import type { LinkStatus } from './store.js'

export interface StatusFields {
  disabled: number
  ends_at: number | null
  expiration_clicks: number | null
  clicks: number
}

export function isPastEnd(link: StatusFields, now: number): boolean {
  return link.ends_at !== null && link.ends_at <= now
}

export function isOutOfClicks(link: StatusFields): boolean {
  return (
    link.expiration_clicks !== null &&
    link.expiration_clicks > 0 &&
    link.clicks >= link.expiration_clicks
  )
}

export function linkStatus(link: StatusFields, now: number): LinkStatus {
  if (link.disabled === 1) return 'disabled'
  if (isPastEnd(link, now) || isOutOfClicks(link)) return 'expired'
  return 'active'
}
