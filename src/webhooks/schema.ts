/** The webhook resource on the wire: records, request bodies, list queries and deliveries. */
import { EVENT_TYPES } from '../events/types.js'
import {
  FormattedString,
  IntegerEnum,
  ListQuery,
  Nullable,
  StringEnum,
  Timestamp,
  Type,
  type Static,
} from '../shared/schema.js'

/** What `events[]` accepts: event names, or `*` for every event. */
export const EVENT_CHOICES = ['*', ...EVENT_TYPES] as const

export const WebhookRecord = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Integer({ description: '1: deliveries are sent; 0: switched off.' }),
  disabled_reason: Nullable(
    Type.String({ description: 'Why the service switched the webhook off, if it did.' }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type WebhookRecord = Static<typeof WebhookRecord>

/** The create and rotate answers: the record and its signing secret, shown this once. */
export const WebhookWithSecret = Type.Object({
  ...WebhookRecord.properties,
  secret: Type.String({ description: '`whsec_` and base64: shown only in this answer.' }),
})
export type WebhookWithSecret = Static<typeof WebhookWithSecret>

const fields = {
  url: FormattedString('http-url', {
    maxLength: 2048,
    description:
      'Where events are POSTed. Private addresses only if WEBHOOK_ALLOWED_HOSTS names them.',
  }),
  events: Type.Array(StringEnum(EVENT_CHOICES), {
    minItems: 1,
    maxItems: EVENT_CHOICES.length,
    description: 'Event names, or `*` for all.',
  }),
  active: Type.Optional(IntegerEnum([0, 1] as const, { description: 'Default 1.' })),
}

export const WebhookCreateBody = Type.Object(fields, { additionalProperties: false })
export const WebhookUpdateBody = Type.Object(
  { ...fields, url: Type.Optional(fields.url), events: Type.Optional(fields.events) },
  { additionalProperties: false },
)
export type WebhookInput = Static<typeof WebhookUpdateBody>

export const WebhookListQuery = Type.Object(ListQuery(['id'] as const, ['url'] as const))
export type WebhookListQuery = Static<typeof WebhookListQuery>

export const DeliveryRecord = Type.Object({
  id: Type.Integer(),
  message_id: Type.String({ description: 'The `webhook-id` header, the same on every attempt.' }),
  event: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed'] as const),
  attempts: Type.Integer(),
  status_code: Nullable(Type.Integer({ description: 'HTTP status of the last attempt.' })),
  duration_ms: Nullable(Type.Integer({ description: 'Duration of the last attempt.' })),
  error: Nullable(Type.String({ description: 'What went wrong in the last attempt.' })),
  attempted_at: Nullable(Timestamp),
  next_attempt_at: Nullable(Timestamp),
  created_at: Timestamp,
  attempt_log: Type.Array(
    Type.Object({
      attempted_at: Timestamp,
      status_code: Nullable(Type.Integer({ description: 'HTTP status of the answer, if any.' })),
      duration_ms: Nullable(Type.Integer()),
      error: Nullable(Type.String({ description: 'What went wrong, if it did.' })),
    }),
    {
      description:
        "Every attempt still logged, oldest first (a webhook's last 200 attempts are kept; a re-send keeps the earlier ones).",
    },
  ),
})
export type DeliveryRecord = Static<typeof DeliveryRecord>

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'] as const)),
  per_page: ListQuery([], []).per_page,
  page: ListQuery([], []).page,
})
export type DeliveryListQuery = Static<typeof DeliveryListQuery>

export const DeliveryParams = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,15}$' }),
  delivery: Type.String({ pattern: '^[0-9]{1,15}$' }),
})
