import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { get, json } from '#tests/api.ts'
import { createUser, sessionCookie } from '#tests/factories.ts'
import * as api from './activate-free-access.ts'

const call = (cookie?: string) => json(api.action, 'POST', '/api/activate-free-access', undefined, cookie)

test('spec 002 §7, no payload: refused with a clear message unless the owner has granted free access; nothing changes', async () => {
	const person = await createUser()
	const refused = await call(await sessionCookie(person.id))
	expect(refused).toMatchObject({ status: 403, body: { message: api.FREE_ACCESS_NOT_GRANTED } })
	expect(await db.query.users.findFirst({ where: eq(s.users.id, person.id) })).toMatchObject({ isGrandfathered: false })

	const granted = await createUser({ isGrandfathered: true })
	expect(await call(await sessionCookie(granted.id))).toMatchObject({ status: 200, body: { success: true, isGrandfathered: true } })
})

test('signed out it is a 401, and GET is not allowed', async () => {
	expect((await call()).status).toBe(401)
	expect((await get(api.loader, '/api/activate-free-access')).status).toBe(405)
})
