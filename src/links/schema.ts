import { DomainRecord } from '../domains/schema.js'
import { PixelRecord } from '../pixels/schema.js'
import {
  FormattedString,
  Id,
  IntegerEnum,
  ListQuery,
  Nullable,
  StringEnum,
  Timestamp,
  Type,
  type Static,
} from '../shared/schema.js'
import { SpaceRecord } from '../spaces/schema.js'
import { MAX_TAGS_PER_LINK } from '../tags/names.js'
import { MAX_TARGET_ENTRIES, TARGET_KEYS } from './targeting-keys.js'

const HttpUrl = (description?: string) =>
  FormattedString('http-url', { maxLength: 2048, ...(description ? { description } : {}) })

const KeyValue = Type.Object({ key: Type.String(), value: Type.String() })
const ValueOnly = Type.Object({ value: Type.String() })

export const LinkRecord = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  url: Type.String(),
  short_url: Type.String(),
  title: Nullable(Type.String()),
  target_type: Type.Integer(),
  country_target: Nullable(Type.Array(KeyValue)),
  platform_target: Nullable(Type.Array(KeyValue)),
  language_target: Nullable(Type.Array(KeyValue)),
  rotation_target: Nullable(Type.Array(ValueOnly)),
  last_rotation: Nullable(Type.Integer()),
  disabled: Type.Integer(),
  privacy: Type.Integer(),
  privacy_password: Type.Boolean({ description: 'Whether a statistics password is set.' }),
  password: Type.Boolean({ description: 'Whether a link password is set.' }),
  expiration_url: Nullable(Type.String()),
  expiration_clicks: Nullable(Type.Integer()),
  clicks: Type.Integer(),
  space: Nullable(SpaceRecord),
  domain: DomainRecord,
  pixels: Type.Array(PixelRecord),
  tags: Type.Array(Type.String(), { description: 'Tag names, sorted ignoring case.' }),
  ends_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type LinkRecord = Static<typeof LinkRecord>

function targetList(list: keyof typeof TARGET_KEYS, description: string) {
  const entry = Type.Object(
    {
      key: Type.Optional(Nullable(StringEnum(TARGET_KEYS[list]))),
      value: Type.Optional(Nullable(HttpUrl())),
    },
    { additionalProperties: false },
  )
  return Type.Optional(Nullable(Type.Array(entry, { maxItems: MAX_TARGET_ENTRIES, description })))
}

const fields = {
  url: HttpUrl('The link to be shortened.'),
  domain_id: Id,
  alias: Type.Optional(
    Nullable(
      FormattedString('alpha-dash', {
        maxLength: 255,
        description:
          'Omitted: six random characters, drawn again while taken (422 on alias after 30 taken draws).',
      }),
    ),
  ),
  title: Type.Optional(
    Nullable(Type.String({ maxLength: 255, description: 'Otherwise taken from the page.' })),
  ),
  password: Type.Optional(
    Nullable(Type.String({ maxLength: 128, description: 'Empty clears it.' })),
  ),
  space_id: Type.Optional(Nullable({ ...Id, description: 'Empty removes the space.' })),
  space: Type.Optional(
    Nullable({ ...Id, description: 'phpShort 2.x name of `space_id`.', deprecated: true }),
  ),
  pixel_ids: Type.Optional(
    Nullable(Type.Array(Id, { maxItems: 100, description: 'Replaces the set; empty clears it.' })),
  ),
  tags: Type.Optional(
    Nullable(
      Type.Array(Type.String({ maxLength: 255 }), {
        maxItems: MAX_TAGS_PER_LINK,
        description:
          'Tag names (trimmed, 1–50 characters, no comma; an unknown name makes the tag). ' +
          'Replaces the set; empty clears it.',
      }),
    ),
  ),
  disabled: Type.Optional(IntegerEnum([0, 1] as const, { description: '0 active, 1 disabled.' })),
  privacy: Type.Optional(
    IntegerEnum([0, 1, 2] as const, {
      description: 'Statistics: 0 public, 1 private, 2 password.',
    }),
  ),
  privacy_password: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  expiration_url: Type.Optional(Nullable(HttpUrl('Where visitors go once the link has expired.'))),
  expiration_date: Type.Optional(
    Nullable(FormattedString('date-ymd', { description: 'YYYY-MM-DD, in the account time zone.' })),
  ),
  expiration_time: Type.Optional(Nullable(FormattedString('time-hm', { description: 'HH:MM.' }))),
  expiration_clicks: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: '0 or empty: no limit.' }),
    ),
  ),
  target_type: Type.Optional(
    IntegerEnum([0, 1, 2, 3, 4] as const, {
      description: '0 none, 1 country, 2 platform, 3 language, 4 rotation.',
    }),
  ),
  country: targetList('country', 'Country targeting: `key` ISO 3166-1 alpha-2, `value` a URL.'),
  platform: targetList('platform', 'Platform targeting.'),
  language: targetList('language', 'Language targeting: `key` ISO 639-1.'),
  rotation: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({ value: Type.Optional(Nullable(HttpUrl())) }, { additionalProperties: false }),
        {
          maxItems: MAX_TARGET_ENTRIES,
          description: 'Rotation destinations (round-robin with `url`).',
        },
      ),
    ),
  ),
}

export const LinkCreateBody = Type.Object(
  {
    ...fields,
    domain_id: Type.Optional({
      ...Id,
      description: 'Or `domain`; neither: the default domain (`PUBLIC_URL`).',
    }),
    domain: Type.Optional({ ...Id, description: 'Accepted for `domain_id`.', deprecated: true }),
  },
  { additionalProperties: false },
)
export const LinkUpdateBody = Type.Object(
  {
    ...fields,
    url: Type.Optional(fields.url),
    domain_id: Type.Optional({ ...Id, description: 'Cannot change: absent or the current one.' }),
    domain: Type.Optional({ ...Id, description: 'Accepted for `domain_id`.', deprecated: true }),
  },
  { additionalProperties: false },
)
export type LinkCreateInput = Static<typeof LinkCreateBody>
export type LinkUpdateInput = Static<typeof LinkUpdateBody>
export type LinkInput = LinkUpdateInput

export const LinkListQuery = Type.Object({
  ...ListQuery(
    ['id', 'clicks', 'title', 'alias', 'url'] as const,
    // `all`: alias, URL or title (an addition of ours to phpShort's values).
    ['title', 'alias', 'url', 'all'] as const,
  ),
  status: Type.Optional(
    IntegerEnum([0, 1, 2, 3] as const, { description: '0 all, 1 active, 2 expired, 3 disabled.' }),
  ),
  space_id: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: '0: links in no space.',
    }),
  ),
  domain_id: Type.Optional(Id),
  pixel_id: Type.Optional(Id),
  tag: Type.Optional(
    Type.Array(Type.String({ maxLength: 255 }), {
      maxItems: MAX_TAGS_PER_LINK,
      description: 'Tag names (`tag=a` or `tag[]=a&tag[]=b`), ignoring case.',
    }),
  ),
  tag_mode: Type.Optional(
    StringEnum(['any', 'all'] as const, {
      description: 'Default any: links carrying any of the tags; all: every one of them.',
    }),
  ),
  space: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'phpShort 2.x name of `space_id`.',
      deprecated: true,
    }),
  ),
  domain: Type.Optional({
    ...Id,
    description: 'phpShort 2.x name of `domain_id`.',
    deprecated: true,
  }),
})
export type LinkListQuery = Static<typeof LinkListQuery>
