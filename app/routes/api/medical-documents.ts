import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET /api/medical-documents; DELETE /api/medical-documents/{id} (uploads: /api/upload-document).
const api = sectionResource('documents')

export const loader = api.loader
export const action = api.action
