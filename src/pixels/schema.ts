import {
  FormattedString,
  ListQuery,
  StringEnum,
  Timestamp,
  Type,
  type Static,
} from '../shared/schema.js'
import { PIXEL_TYPE_INPUTS, PIXEL_TYPES } from './types.js'

export const PixelRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: StringEnum(PIXEL_TYPES),
  value: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
})
export type PixelRecord = Static<typeof PixelRecord>

const fields = {
  name: Type.String({ maxLength: 32, description: 'Unique among your pixels.' }),
  type: StringEnum(PIXEL_TYPE_INPUTS, { description: '`x` is stored as `twitter`.' }),
  value: FormattedString('alpha-dash', {
    maxLength: 255,
    description: 'The pixel ID. adroll takes `ADVID-PIXID`.',
  }),
}

export const PixelCreateBody = Type.Object(fields, { additionalProperties: false })
export const PixelUpdateBody = Type.Partial(Type.Object(fields), { additionalProperties: false })
export type PixelInput = Static<typeof PixelUpdateBody>

export const PixelListQuery = Type.Object({
  ...ListQuery(['id', 'name'] as const, ['name'] as const),
  type: Type.Optional(StringEnum(PIXEL_TYPE_INPUTS)),
})
export type PixelListQuery = Static<typeof PixelListQuery>
