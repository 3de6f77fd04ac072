import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/insurance-policies; PUT, DELETE /api/insurance-policies/{id}.
export const { loader, action } = sectionResource('policies')
