import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/medications'

// Spec 001 §7: GET, POST /api/medications; PUT, DELETE /api/medications/{id}.
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'medications', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'medications', params.id)
}
