import { resource } from '#app/utils/resource.server.ts'
import { proposeImportCall } from './profile-import.server.ts'
import type { Route } from './+types/profile-import'

/** POST /api/medical-profiles/:id/import: `{ bundle }` or `{ shlink, passcode }`; answers the proposed changes. Owner only. */
const api = resource<Route.ActionArgs>({ POST: proposeImportCall })

export const loader = api.loader
export const action = api.action
