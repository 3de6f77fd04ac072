import { afterEach, expect, test } from 'vitest'
import { OWNER_ONLY, requireOwner } from '#app/middleware/permissions.server.ts'
import { env } from '#app/utils/env.server.ts'
import { call, createUser, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'

const ownerEmail = env.OWNER_EMAIL
afterEach(() => {
	env.OWNER_EMAIL = ownerEmail
})

const asOwner = async (cookie?: string) => (await call(requireOwner, getRequest('/owner-panel', cookie))).result

test('the owner is the account named by OWNER_EMAIL, in any case', async () => {
	const user = await createUser()
	env.OWNER_EMAIL = user.email.toLowerCase()
	expect(await asOwner(await sessionCookie(user.id))).toMatchObject({ id: user.id, isOwner: true })
})

test('a session that presented the admin token is let in; anyone else sees Access Denied; signed out, sign-in', async () => {
	env.OWNER_EMAIL = undefined
	const user = await createUser()
	expect(await asOwner(await sessionCookie(user.id, { adminTokenValid: true }))).toMatchObject({ id: user.id })
	const refused = await unwrap(await asOwner(await sessionCookie(user.id)))
	expect(refused).toMatchObject({ status: 403, body: OWNER_ONLY })
	const signedOut = await unwrap(await asOwner())
	expect(signedOut.status).toBe(302)
	expect(signedOut).toHaveRedirect('/api/login?redirectTo=%2Fowner-panel')
})
