import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/medications; PUT, DELETE /api/medications/{id}.
const api = sectionResource('medications')

export const loader = api.loader
export const action = api.action
