import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/medical-conditions; PUT, DELETE /api/medical-conditions/{id}.
const api = sectionResource('conditions')

export const loader = api.loader
export const action = api.action
