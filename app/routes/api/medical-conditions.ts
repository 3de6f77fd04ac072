import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/medical-conditions'

// Spec 001 §7: GET, POST /api/medical-conditions; PUT, DELETE /api/medical-conditions/{id}.
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'conditions', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'conditions', params.id)
}
