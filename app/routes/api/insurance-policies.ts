import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/insurance-policies'

// Spec 001 §7: GET, POST /api/insurance-policies; PUT, DELETE /api/insurance-policies/{id}.
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'policies', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'policies', params.id)
}
