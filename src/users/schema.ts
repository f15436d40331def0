/**
 * The dashboard's account forms, as schemas (validated and reported like the API's bodies):
 * a person's profile, a new API key's name, and a user made by an administrator.
 */
import { FormattedString, StringEnum, Type, type Static } from '../shared/schema.js'

const name = Type.String({ minLength: 1, maxLength: 255 })
const email = FormattedString('sign-in-email', { maxLength: 320 })

export const ProfileBody = Type.Object(
  { name, email, timezone: FormattedString('time-zone') },
  { additionalProperties: false },
)
export type ProfileInput = Partial<Static<typeof ProfileBody>>

export const ApiKeyBody = Type.Object(
  { key_name: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
)
export type ApiKeyInput = Partial<Static<typeof ApiKeyBody>>

export const USER_ROLES = ['user', 'admin'] as const

export const NewUserBody = Type.Object(
  { email, name, role: StringEnum(USER_ROLES) },
  { additionalProperties: false },
)
export type NewUserInput = Partial<Static<typeof NewUserBody>>
