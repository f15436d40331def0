/**
 * A link as the redirect keeps it in its cache: every destination already in canonical
 * `href` form (safe for a Location header), targeting compiled to rules, pixels attached.
 */
import type { DomainRow } from '../db/types.js'
import type { TargetEntry } from '../links/field-rules.js'
import type { StoredRule } from '../links/redirect-rules.js'
import { socialPreviewOf, type SocialPreview } from '../links/social-preview.js'
import type { TargetType } from '../links/targeting-keys.js'
import { sha256 } from '../shared/secrets.js'
import type { RedirectLinkRow } from './store.js'
import { isIntentUrl } from '../shared/destination-url.js'
import { compileTargeting, offAndroidUrl } from './targeting/compile.js'
import { compileRules, type CompiledRules } from './targeting/compiled-rules.js'
import type { CompiledTargeting } from './targeting/compiled-targeting.js'

export interface RedirectLink {
  readonly id: number
  readonly userId: number
  readonly domainId: number
  readonly alias: string
  readonly shortUrl: string
  readonly url: string
  readonly title: string | null
  readonly disabled: boolean
  readonly endsAt: number | null
  readonly expirationClicks: number | null
  readonly expirationUrl: string | null
  /** Set when `expirationUrl` is an Android intent: what other platforms get instead. */
  readonly expirationOffAndroid: string | null
  /** Clicks as loaded; `exhausted` turns true once the click-limit step takes the last click or refuses one. */
  readonly clicks: number
  exhausted: boolean
  readonly passwordHash: string | null
  /** Changes whenever the password does, so remembered passwords stop working. */
  readonly passwordTag: string
  readonly privacy: number
  readonly privacyPasswordHash: string | null
  readonly privacyPasswordTag: string
  readonly targetType: TargetType
  readonly targeting: CompiledTargeting
  /** Redirect rules, consulted before `targeting`. */
  readonly rules: CompiledRules
  readonly storedRules: readonly StoredRule[]
  readonly lastRotation: number | null
  readonly pixels: readonly { type: string; value: string }[]
  /** What link-preview fetchers are shown instead of the redirect; null: they are redirected. */
  readonly social: SocialPreview | null
  readonly targetLists: {
    readonly country: readonly TargetEntry[] | null
    readonly platform: readonly TargetEntry[] | null
    readonly language: readonly TargetEntry[] | null
    readonly rotation: readonly { value: string }[] | null
  }
}

export function href(url: string): string {
  try {
    return new URL(url).href
  } catch {
    return url
  }
}

/** The list with every destination in `href` form. */
function hrefs<T extends { value: string }>(list: readonly T[] | null): T[] | null {
  return list === null ? null : list.map((entry) => ({ ...entry, value: href(entry.value) }))
}

const tag = (hash: string | null) => (hash === null ? '' : sha256(hash).slice(0, 16))

export function toRedirectLink(row: RedirectLinkRow, domain: DomainRow): RedirectLink {
  const { link } = row
  const targetLists = {
    country: hrefs(link.country_target),
    platform: hrefs(link.platform_target),
    language: hrefs(link.language_target),
    rotation: hrefs(link.rotation_target),
  }
  const url = href(link.url)
  const targetType = link.target_type as TargetType
  const expirationUrl = link.expiration_url === null ? null : href(link.expiration_url)
  const expirationClicks =
    link.expiration_clicks !== null && link.expiration_clicks > 0 ? link.expiration_clicks : null
  return {
    id: link.id,
    userId: link.user_id,
    domainId: link.domain_id,
    alias: link.alias,
    shortUrl: `${domain.url}/${link.alias}`,
    url,
    title: link.title,
    disabled: link.disabled === 1,
    endsAt: link.ends_at,
    expirationClicks,
    expirationUrl,
    expirationOffAndroid:
      expirationUrl !== null && isIntentUrl(expirationUrl) ? offAndroidUrl(expirationUrl) : null,
    clicks: link.clicks,
    exhausted: expirationClicks !== null && link.clicks >= expirationClicks,
    passwordHash: link.password,
    passwordTag: tag(link.password),
    privacy: link.privacy,
    privacyPasswordHash: link.privacy_password,
    privacyPasswordTag: tag(link.privacy_password),
    targetType,
    targeting: compileTargeting({ url, targetType, ...targetLists }),
    rules: compileRules(link.rules, href),
    storedRules: link.rules ?? [],
    lastRotation: link.last_rotation,
    pixels: row.pixels,
    social: socialPreviewOf(link),
    targetLists,
  }
}
