import { data } from 'react-router'
import { GeneralErrorBoundary } from '#app/ui/error-boundary.tsx'

export function loader() {
	throw data('Not found', { status: 404 })
}

export function action() {
	throw data('Not found', { status: 404 })
}

export default function NotFound() {
	return <GeneralErrorBoundary />
}

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
