import { expect, test } from 'vitest'
import { redirectWithToast } from '#app/utils/toast.server.ts'

test('toHaveRedirect passes on a 3xx to the place named and fails otherwise', async () => {
	const to = new Response(null, { status: 302, headers: { location: '/auth' } })
	expect(to).toHaveRedirect('/auth')
	expect(to).toHaveRedirect(/^\/au/)
	expect(() => expect(to).toHaveRedirect('/dashboard')).toThrow('expected a redirect to /dashboard, got 302 to /auth')
	expect(() => expect(new Response('ok')).toHaveRedirect()).toThrow('without a Location')
	expect(new Response('ok')).not.toHaveRedirect()
})

test('toSendToast reads the toast cookie the answer sets', async () => {
	const response = await redirectWithToast('/', { type: 'success', title: 'Saved', description: 'All good' })
	await expect(response).toSendToast({ title: 'Saved' })
	await expect(expect(response).toSendToast({ title: 'Deleted' })).rejects.toThrow(
		/expected a toast like[\s\S]*Deleted[\s\S]*got[\s\S]*Saved/,
	)
	await expect(new Response('ok')).not.toSendToast({ title: 'Saved' })
})
