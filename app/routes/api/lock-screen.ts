import { lockScreen } from '#app/domain/cards/cards.server.ts'
import { LockScreenQuerySchema } from '#app/domain/cards/schemas.ts'
import { cardResource } from './card-download.server.ts'

/** GET /api/medical-profiles/:id/lock-screen.png?w=&h=[&lang=][&code=]: the profile's lock-screen image, made now. Owner only. */
const api = cardResource(LockScreenQuerySchema, lockScreen, 'image/png')

export const loader = api.loader
export const action = api.action
