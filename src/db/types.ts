/** Table shapes as the query builder sees them. Timestamps are epoch milliseconds. */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** One entry of a link's targeting list (a country, platform or language and its URL). */
export interface TargetEntry {
  key: string
  value: string
}

/** One entry of a link's rotation: a destination and, on a weighted rotation, its weight. */
export interface RotationEntry {
  value: string
  /** Visits in every 100 (1 to 100); set on every entry of a weighted rotation, else on none. */
  weight?: number
}

/** One condition of a redirect rule as stored (`key` only for `query`, `value` absent only there). */
export interface StoredCondition {
  type: string
  key?: string
  value?: string
}

/** A redirect rule as stored: every condition must hold for the visitor to go to `url`. */
export interface StoredRule {
  conditions: StoredCondition[]
  url: string
}

export interface UsersTable {
  id: Generated<number>
  name: string
  email: string
  timezone: string
  /** scrypt (see shared/secrets.ts); `null` until a password is set. */
  password_hash: Generated<string | null>
  role: Generated<UserRole>
  disabled: Generated<number>
  created_at: number
  updated_at: number
}

export type UserRole = 'admin' | 'user'

export interface SessionsTable {
  /** SHA-256 (hex) of the session id; the id itself is only in the browser's cookie. */
  id_hash: string
  user_id: number
  csrf_secret: string
  created_at: number
  last_seen_at: number
}

export interface PasswordTokensTable {
  id: Generated<number>
  /** SHA-256 (hex) of the one-time token. */
  hash: string
  user_id: number
  created_at: number
  expires_at: number
  used_at: number | null
}

export interface ApiKeysTable {
  id: Generated<number>
  user_id: number
  prefix: string
  hash: string
  created_at: number
  revoked_at: number | null
  /** Since migration 0007. */
  name: string
  last_used_at: number | null
}

export interface DomainsTable {
  id: Generated<number>
  user_id: number | null
  name: string
  url: string
  index_page: string | null
  not_found_page: string | null
  created_at: number
  updated_at: number
}

export interface SpacesTable {
  id: Generated<number>
  user_id: number
  name: string
  color: number
  created_at: number
  updated_at: number
}

export interface PixelsTable {
  id: Generated<number>
  user_id: number
  name: string
  type: string
  value: string
  created_at: number
  updated_at: number
}

export interface UtmTemplatesTable {
  id: Generated<number>
  user_id: number
  name: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  utm_term: string | null
  utm_content: string | null
  created_at: number
  updated_at: number
}

export interface LinksTable {
  id: Generated<number>
  user_id: number
  domain_id: number
  space_id: number | null
  alias: string
  url: string
  title: string | null
  title_locked: number
  target_type: number
  country_target: string | null
  platform_target: string | null
  language_target: string | null
  rotation_target: string | null
  last_rotation: number | null
  /** Redirect rules as JSON text; null when the link has none. */
  rules: ColumnType<string | null, string | null | undefined, string | null>
  disabled: number
  privacy: number
  privacy_password: string | null
  password: string | null
  expiration_url: string | null
  expiration_clicks: number | null
  clicks: number
  ends_at: number | null
  created_at: number
  updated_at: number
  /** When a background title fetch was asked for and has not finished (null: none pending). */
  title_fetch_at: ColumnType<number | null, number | null | undefined, number | null>
  /** The social preview (migration 0031): what link-preview fetchers are shown; null: unset. */
  og_title: string | null
  og_description: string | null
  og_image: string | null
}

export interface LinkPixelsTable {
  link_id: number
  pixel_id: number
}

export interface TagsTable {
  id: Generated<number>
  user_id: number
  name: string
  /** `name` in lower case: unique per user. */
  name_key: string
  color: number
  created_at: number
  updated_at: number
}

export interface LinkTagsTable {
  link_id: number
  tag_id: number
}

export interface SettingsTable {
  name: string
  value: string
}

export interface ClicksTable {
  link_id: number
  at: number
  country: string | null
  platform: string | null
  browser: string | null
  device: string | null
  language: string | null
  referrer: string | null
  visitor: string
  /** The region's (subdivision's) English name; with a city database only (GEOIP_DB). */
  region: string | null
  city: string | null
  /** The short URL's `utm_source`, `utm_medium`, `utm_campaign` (at most 255 characters). */
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  /** Where the visit was sent (at most 2048 characters). */
  destination: string | null
  /** `qr` (the short URL had `qr=1`) or `link`; null on clicks stored before sources. */
  source: string | null
}

/** A stored click still to publish on the click stream (CLICK_STREAM_URL). */
export interface ClickStreamTable {
  id: Generated<number>
  link_id: number
  /** The event's JSON without its `id` (the row's id is added when it is published). */
  event: string
}

export interface ClickStreamLeaseTable {
  name: string
  holder: string
  until: number
}

export interface ClickStatsTable {
  link_id: number
  dimension: string
  day: string
  value: string
  clicks: number
}

export interface ClickVisitorsTable {
  link_id: number
  day: string
  visitor: string
}

export interface WebhooksTable {
  id: Generated<number>
  user_id: number
  url: string
  /** JSON array of event names, or `["*"]`. */
  events: string
  active: number
  /** `whsec_` and base64. */
  secret: string
  /** When the attempts started failing without a success since (epoch ms), or null. */
  failing_since: number | null
  /** Why the service switched the webhook off, or null. */
  disabled_reason: string | null
  created_at: number
  updated_at: number
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

export interface WebhookDeliveriesTable {
  id: Generated<number>
  webhook_id: number
  /** The `webhook-id` header: the same on every attempt of this delivery. */
  message_id: string
  type: string
  /** The JSON body sent. */
  payload: string
  status: DeliveryStatus
  attempts: number
  next_attempt_at: number
  /** A dispatcher holds the row until then (claim); null when free. */
  lease_until: number | null
  last_attempt_at: number | null
  last_status_code: number | null
  last_duration_ms: number | null
  last_error: string | null
  created_at: number
}

/** One attempt of a delivery (migration 0010); the last ones of each webhook are kept. */
export interface WebhookAttemptsTable {
  id: Generated<number>
  webhook_id: number
  delivery_id: number
  attempted_at: number
  status_code: number | null
  duration_ms: number | null
  error: string | null
}

export interface ImportsTable {
  id: Generated<number>
  user_id: number
  source: string
  /** The file's name or the API's base URL. */
  origin: string
  dry_run: number
  on_conflict: string
  /** queued, running, done, failed */
  status: string
  total: number
  created: number
  renamed: number
  skipped: number
  duplicate: number
  invalid: number
  unknown_domain: number
  error: string | null
  created_at: number
  updated_at: number
  finished_at: number | null
}

export interface ImportRowsTable {
  import_id: number
  line: number
  outcome: string
  source_key: string | null
  alias: string | null
  link_id: number | null
  message: string | null
  /** hash53 of source_key (migration 0009). */
  key_hash: number | null
  /** The domain of the link the row creates, if any (migration 0009). */
  domain_id: number | null
}

export interface ImportKeysTable {
  user_id: number
  source: string
  source_key: string
  link_id: number
}

export interface Database {
  users: UsersTable
  api_keys: ApiKeysTable
  domains: DomainsTable
  spaces: SpacesTable
  pixels: PixelsTable
  links: LinksTable
  link_pixels: LinkPixelsTable
  tags: TagsTable
  link_tags: LinkTagsTable
  settings: SettingsTable
  clicks: ClicksTable
  click_stats: ClickStatsTable
  click_visitors: ClickVisitorsTable
  click_stream: ClickStreamTable
  click_stream_lease: ClickStreamLeaseTable
  sessions: SessionsTable
  password_links: PasswordTokensTable
  webhooks: WebhooksTable
  webhook_outbox: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  imports: ImportsTable
  import_rows: ImportRowsTable
  import_keys: ImportKeysTable
  utm_templates: UtmTemplatesTable
}

export type UserRow = Selectable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type PasswordTokenRow = Selectable<PasswordTokensTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
export type DomainRow = Selectable<DomainsTable>
export type SpaceRow = Selectable<SpacesTable>
export type PixelRow = Selectable<PixelsTable>
/** A tag with its number of links. */
export type TagRow = Selectable<TagsTable> & { links: number }

export type UtmTemplateRow = Selectable<UtmTemplatesTable>
/** A link's row as stored: its targeting lists are JSON text. */
export type StoredLinkRow = Selectable<LinksTable>
/**
 * A link's targeting lists and redirect rules as the stores hand them over and take them: lists, parsed from
 * their JSON columns on read and written back as JSON (links/stored-link.ts).
 */
export interface LinkTargetLists {
  country_target: TargetEntry[] | null
  platform_target: TargetEntry[] | null
  language_target: TargetEntry[] | null
  rotation_target: RotationEntry[] | null
  rules: StoredRule[] | null
}
export type TargetColumn = keyof LinkTargetLists
/** A link as the stores read it. */
export type LinkRow = Omit<StoredLinkRow, TargetColumn> & LinkTargetLists
export type NewLinkRow = Omit<Insertable<LinksTable>, TargetColumn> & Partial<LinkTargetLists>
export type LinkRowUpdate = Omit<Updateable<LinksTable>, TargetColumn> & Partial<LinkTargetLists>
export type WebhookRow = Selectable<WebhooksTable>
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveriesTable>
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>
export type ImportRunRow = Selectable<ImportsTable>
export type ImportRowResultRow = Selectable<ImportRowsTable>

export type NewClickStreamRow = Insertable<ClickStreamTable>
