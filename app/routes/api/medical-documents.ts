import { sectionResource } from './profile-api.server.ts'

// Spec 001 §7: GET /api/medical-documents; DELETE /api/medical-documents/{id} (uploads: /api/upload-document).
export const { loader, action } = sectionResource('documents')
