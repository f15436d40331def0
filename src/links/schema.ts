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
import { DestinationUrl } from './destination-url.js'
import {
  MAX_CONDITION_TEXT,
  MAX_RULE_CONDITIONS,
  MAX_RULES,
  RULE_CONDITION_TYPES,
} from './redirect-rules.js'
import { MAX_TARGET_ENTRIES, MAX_WEIGHT, TARGET_KEYS } from './targeting-keys.js'
import { MAX_TAGS_PER_LINK } from '../tags/names.js'

const HttpUrl = (description?: string) =>
  FormattedString('http-url', { maxLength: 2048, ...(description ? { description } : {}) })

const KeyValue = Type.Object({ key: Type.String(), value: Type.String() })
const RotationEntry = Type.Object({
  value: Type.String(),
  weight: Type.Optional(
    Type.Integer({ description: 'Only on weighted rotations: the share in 100 visits.' }),
  ),
})

const RuleRecord = Type.Object({
  conditions: Type.Array(
    Type.Object({
      type: StringEnum(RULE_CONDITION_TYPES),
      key: Type.Optional(Type.String({ description: 'Query conditions only.' })),
      value: Type.Optional(Type.String({ description: 'Absent only on a query condition.' })),
    }),
  ),
  url: Type.String(),
})

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
  rotation_target: Nullable(Type.Array(RotationEntry)),
  last_rotation: Nullable(Type.Integer()),
  rules: Type.Array(RuleRecord, { description: 'Redirect rules, in order; `[]` when none.' }),
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
  og_title: Nullable(Type.String({ description: 'Social preview title; null: none.' })),
  og_description: Nullable(Type.String({ description: 'Social preview description; null: none.' })),
  og_image: Nullable(Type.String({ description: 'Social preview image URL; null: none.' })),
})
export type LinkRecord = Static<typeof LinkRecord>

function targetList(list: keyof typeof TARGET_KEYS, description: string) {
  const entry = Type.Object(
    {
      key: Type.Optional(Nullable(StringEnum(TARGET_KEYS[list]))),
      value: Type.Optional(Nullable(DestinationUrl())),
    },
    { additionalProperties: false },
  )
  return Type.Optional(Nullable(Type.Array(entry, { maxItems: MAX_TARGET_ENTRIES, description })))
}

const RuleCondition = Type.Object(
  {
    type: Type.Optional(Nullable(StringEnum(RULE_CONDITION_TYPES))),
    key: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MAX_CONDITION_TEXT,
          description: 'Query conditions only: the name of the short URL parameter.',
        }),
      ),
    ),
    value: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MAX_CONDITION_TEXT,
          description:
            'country: ISO 3166-1 alpha-2; region: ISO 3166-2 (`US-CA`) or an English region name (`California`); platform: a targeting ' +
            'platform; device: mobile, tablet or desktop; browser: a name as the `browser` ' +
            'statistics give it; language: ISO 639-1; before, after: an ISO 8601 instant; ' +
            'query: the value the parameter must equal (empty: any value).',
        }),
      ),
    ),
  },
  { additionalProperties: false },
)

/** A rule's `url` is checked as the link's own `url` is. */
const RuleUrl = DestinationUrl

const Rule = Type.Object(
  {
    conditions: Type.Optional(
      Nullable(
        Type.Array(RuleCondition, {
          maxItems: MAX_RULE_CONDITIONS,
          description: 'All must hold (at least one).',
        }),
      ),
    ),
    url: Type.Optional(Nullable(RuleUrl('Where a visitor who meets every condition goes.'))),
  },
  { additionalProperties: false },
)

const fields = {
  url: DestinationUrl(
    'The link to be shortened: an http(s) URL, or an app link whose scheme `APP_URL_SCHEMES` allows.',
  ),
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
  expiration_url: Type.Optional(
    Nullable(DestinationUrl('Where visitors go once the link has expired (an app link too).')),
  ),
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
  og_title: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 255,
        description: 'Title link-preview fetchers (Slack, X, Facebook …) show. Empty clears it.',
      }),
    ),
  ),
  og_description: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 1000,
        description: 'Description of the social preview. Empty clears it.',
      }),
    ),
  ),
  og_image: Type.Optional(
    Nullable(HttpUrl('Image of the social preview (http or https). Empty clears it.')),
  ),
  rotation: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object(
          {
            value: Type.Optional(Nullable(DestinationUrl())),
            weight: Type.Optional(
              Nullable(
                Type.Integer({
                  minimum: 1,
                  maximum: MAX_WEIGHT,
                  description:
                    'Visits in every 100 this destination gets; all entries or none. `url` gets 100 minus their sum.',
                }),
              ),
            ),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_TARGET_ENTRIES,
          description:
            'Rotation destinations: round-robin with `url`, or weighted (smooth weighted round-robin) when the entries carry `weight`. The weights add up to at most 100 (422 on `rotation`).',
        },
      ),
    ),
  ),
  rules: Type.Optional(
    Nullable(
      Type.Array(Rule, {
        maxItems: MAX_RULES,
        description:
          'Redirect rules, in order: the first whose conditions all hold sends the visitor to ' +
          'its `url`, before the targeting list. Replaces the list; empty clears it.',
      }),
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
