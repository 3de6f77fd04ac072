import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/medical-conditions; PUT, DELETE /api/medical-conditions/{id}.
export const { loader, action } = sectionResource('conditions')
