import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/allergies; DELETE /api/allergies/{id}.
export const { loader, action } = sectionResource('allergies')
