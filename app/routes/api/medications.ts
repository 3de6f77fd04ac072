import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/medications; PUT, DELETE /api/medications/{id}.
export const { loader, action } = sectionResource('medications')
