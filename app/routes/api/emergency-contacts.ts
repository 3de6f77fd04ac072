import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/emergency-contacts; DELETE /api/emergency-contacts/{id}.
const api = sectionResource('contacts')

export const loader = api.loader
export const action = api.action
