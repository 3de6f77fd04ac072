import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/allergies'

// Spec 001 §7: GET, POST /api/allergies; DELETE /api/allergies/{id}.
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'allergies', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'allergies', params.id)
}
