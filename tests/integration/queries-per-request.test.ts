import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { observeQueries } from '#db/client.ts'
import { dashboardGate } from '#app/middleware/dashboard.server.ts'
import { securityMiddleware } from '#app/middleware/security.server.ts'
import { userMiddleware } from '#app/middleware/user.server.ts'
import * as root from '#app/root.tsx'
import * as layout from '#app/routes/dashboard/layout.tsx'
import * as home from '#app/routes/home.tsx'
import * as qrCodes from '#app/routes/qr/qr-codes.tsx'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { createUser, getRequest, sessionCookie, testAddress } from '#tests/factories.ts'

type Loader = (args: never) => unknown

/** As React Router runs a document GET: the root's and the dashboard layout's middleware, then every loader side by side. */
async function documentGet(path: string, cookie: string, page: Loader) {
	const request = getRequest(path, cookie)
	const context = new RouterContextProvider()
	context.set(clientAddressContext, testAddress())
	const args = { request, context, params: {} } as never
	const queries: string[] = []
	const stop = observeQueries((query) => queries.push(query))
	try {
		await securityMiddleware(args, async () => {
			await userMiddleware(args, async () => {
				await dashboardGate(args, async () => {
					await Promise.all([(root.loader as Loader)(args), (layout.loader as Loader)(args), page(args)])
					return new Response()
				})
				return new Response()
			})
			return new Response()
		})
	} finally {
		stop()
	}
	const reading = (table: string) => queries.filter((q) => new RegExp(`^select .* from "${table}"`, 's').test(q))
	return { sessions: reading('sessions'), users: reading('users'), total: queries.length }
}

test.each([
	['/dashboard', home.loader as Loader],
	['/dashboard/qr-codes', qrCodes.loader as Loader],
])('a GET of %s reads the session once and the user once', async (path, page) => {
	const user = await createUser()
	const counts = await documentGet(path, await sessionCookie(user.id), page)
	expect(counts.sessions).toHaveLength(1)
	expect(counts.users).toHaveLength(1)
	console.log(`${path}: ${counts.total} queries, 1 session read, 1 user read`)
})
