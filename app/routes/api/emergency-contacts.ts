import { sectionAction, sectionLoader } from './profile-api.server.ts'
import type { Route } from './+types/emergency-contacts'

// Spec 001 §7: GET, POST /api/emergency-contacts; DELETE /api/emergency-contacts/{id}.
export function loader({ request, params }: Route.LoaderArgs) {
	return sectionLoader(request, 'contacts', params.id)
}

export function action({ request, params }: Route.ActionArgs) {
	return sectionAction(request, 'contacts', params.id)
}
