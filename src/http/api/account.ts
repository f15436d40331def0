import type { FastifyInstance } from 'fastify'
import { userIdOf } from '../auth.js'
import {
  DataEnvelope,
  ErrorBody,
  Nullable,
  Timestamp,
  Type,
  type Static,
} from '../../shared/schema.js'
import { NotFoundError } from '../../shared/errors.js'
import { isoMicro } from '../../shared/time.js'
import type { UserService } from '../../users/service.js'

export const AccountRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  timezone: Type.String(),
  default_domain: Nullable(Type.Integer({ description: 'The id of the domain PUBLIC_URL names.' })),
  created_at: Timestamp,
})
export type AccountRecord = Static<typeof AccountRecord>

export function accountRoutes(
  app: FastifyInstance,
  users: UserService,
  defaultDomainId: () => number | null,
): void {
  app.get('/account', {
    schema: {
      tags: ['Account'],
      summary: 'Show the account the key belongs to',
      response: { 200: DataEnvelope(AccountRecord), 401: ErrorBody, 429: ErrorBody },
    },
    handler: async (request) => {
      const user = await users.findUser(userIdOf(request))
      if (!user) throw new NotFoundError()
      const data: AccountRecord = {
        id: user.id,
        name: user.name,
        email: user.email,
        timezone: user.timezone,
        default_domain: defaultDomainId(),
        created_at: isoMicro(user.created_at)!,
      }
      return { data, status: 200 }
    },
  })
}
