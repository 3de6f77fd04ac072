import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/insurance-policies; PUT, DELETE /api/insurance-policies/{id}.
const api = sectionResource('policies')

export const loader = api.loader
export const action = api.action
