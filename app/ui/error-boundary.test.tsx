import { renderToString } from 'react-dom/server'
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from 'react-router'
import { expect, test } from 'vitest'
import { WRONG_METHOD_MESSAGE } from '#app/utils/http.ts'
import { GeneralErrorBoundary } from './error-boundary.tsx'

function render(error: unknown) {
	const Stub = createRoutesStub([
		{ id: 'root', path: '/admin/traffic', Component: () => null, ErrorBoundary: () => <GeneralErrorBoundary /> },
	])
	return renderToString(<Stub initialEntries={['/admin/traffic']} hydrationData={{ errors: { root: error } }} />)
}

test('a method a page does not take reads as the server’s refusal, never the router’s text for developers', () => {
	// What React Router throws for a post to a route without an action.
	const routers = new ErrorResponseImpl(
		405,
		'Method Not Allowed',
		new Error(
			'You made a POST request to "/admin/traffic" but did not provide an `action` for route "routes/admin/traffic", so there is no way to handle the request.',
		),
		true,
	)
	const html = render(routers)
	expect(html).toContain('Request refused')
	expect(html).toContain(WRONG_METHOD_MESSAGE)
	expect(html).not.toContain('routes/admin/traffic')
	expect(html).not.toContain('Unexpected Server Error')
	expect(render(new ErrorResponseImpl(403, 'Forbidden', 'Owner only'))).toContain('Owner only')
})
