import { resource } from '#app/utils/resource.server.ts'
import { confirmImportCall } from './profile-import.server.ts'
import type { Route } from './+types/profile-import-confirm'

/** POST /api/medical-profiles/:id/import/confirm: the same body and `accept` (the ids to add); adds them. Owner only. */
const api = resource<Route.ActionArgs>({ POST: confirmImportCall })

export const loader = api.loader
export const action = api.action
