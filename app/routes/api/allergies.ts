import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/allergies; DELETE /api/allergies/{id}.
const api = sectionResource('allergies')

export const loader = api.loader
export const action = api.action
