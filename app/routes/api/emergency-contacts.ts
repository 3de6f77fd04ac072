import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET, POST /api/emergency-contacts; DELETE /api/emergency-contacts/{id}.
export const { loader, action } = sectionResource('contacts')
