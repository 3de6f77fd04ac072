import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import { ErrorList, Field, PageMeta } from './forms.tsx'

/** A page as the server renders it (no JavaScript yet): its head's meta tags, a field, and the form's own errors. */
function render(actionData?: Record<string, unknown>, errors: { field?: string[]; form?: string[] } = {}) {
	const Stub = createRoutesStub([
		{
			id: 'page',
			path: '/donate',
			meta: () => [{ title: 'Donate · Hit Me Helpers' }, { name: 'description', content: 'Give once' }],
			Component: () => (
				<>
					<PageMeta />
					<Field label="Amount" inputProps={{ name: 'amount' }} errors={errors.field} />
					<ErrorList errors={errors.form} alert />
				</>
			),
		},
	])
	return renderToString(<Stub initialEntries={['/donate']} hydrationData={actionData ? { actionData } : undefined} />)
}

const refused = { page: { result: { status: 'error', error: { amount: ['Please enter a valid donation amount of at least $1.'] } } } }

test('after a refused submission the one title starts with "Error: ", and the other meta tags stay', () => {
	const html = render(refused, { field: ['Please enter a valid donation amount of at least $1.'] })
	expect(html.match(/<title>[^<]*<\/title>/g)).toEqual(['<title>Error: Donate · Hit Me Helpers</title>'])
	expect(html).toContain('content="Give once"')
})

test('a page without a refusal keeps its title, an accepted answer too', () => {
	expect(render().match(/<title>[^<]*<\/title>/g)).toEqual(['<title>Donate · Hit Me Helpers</title>'])
	expect(render({ page: { result: { status: 'success' } } })).toContain('<title>Donate · Hit Me Helpers</title>')
})

test('the server-rendered field with an error is invalid, described by its message and focused as the page loads', () => {
	const html = render(refused, { field: ['Please enter a valid donation amount of at least $1.'] })
	const input = html.match(/<input[^>]*name="amount"[^>]*>/)![0]
	expect(input).toContain('aria-invalid="true"')
	expect(input).toMatch(/autofocus=""/)
	expect(input).toMatch(/aria-describedby="[^"]+-error"/)
	expect(render().match(/<input[^>]*>/)![0]).not.toContain('autofocus')
})

test('a refusal without a field of its own is an error summary that is announced and takes the focus', () => {
	const html = render(refused, { form: ['Failed to create payment intent'] })
	expect(html).toMatch(/<div role="alert" tabindex="-1" autofocus="" data-form-errors="">/)
	expect(html).toContain('Failed to create payment intent')
})
