import { redirect } from 'react-router'
import type { Route } from './+types/qr-redirect'

export function loader({ params }: Route.LoaderArgs) {
	return redirect(`/scan/${encodeURIComponent(params.token)}`, 301)
}
