import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/medical-documents'

// Spec 001 §7: GET /api/medical-documents; DELETE /api/medical-documents/{id} (uploads: /api/upload-document).
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'documents', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'documents', params.id)
}
