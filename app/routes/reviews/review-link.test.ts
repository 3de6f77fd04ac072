import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { sendDueReviewReminders } from '#app/domain/reviews/reviews.server.ts'
import * as page from '#app/routes/reviews/review-link.tsx'
import { call, formRequest, getRequest, unwrap } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'

async function reminderToken() {
	const { user, profile } = await fullProfile()
	await db
		.update(s.medicalProfiles)
		.set({ confirmedAt: new Date(Date.now() - 200 * 86_400_000) })
		.where(eq(s.medicalProfiles.id, profile.id))
	await sendDueReviewReminders()
	const [mail] = await db
		.select()
		.from(s.emails)
		.where(and(eq(s.emails.userId, user.id), eq(s.emails.emailType, 'review-reminder')))
		.orderBy(desc(s.emails.id))
	return { profile, token: /\/review\/([A-Za-z0-9_-]{43})/.exec(mail!.textBody)![1]! }
}

const open = async (token: string, query = '') =>
	unwrap((await call(page.loader, getRequest(`/review/${token}${query}`), { token })).result)
const press = async (token: string) => unwrap((await call(page.action, formRequest(`/review/${token}`, {}), { token })).result)

describe('/review/:token', () => {
	test('GET only asks (a link preview confirms nothing); POST confirms and shows thanks; the link then says it was used', async () => {
		const { profile, token } = await reminderToken()
		const asked = await open(token)
		expect(asked.status).toBe(200)
		expect(asked.body).toMatchObject({ link: { state: 'valid', profileName: 'Maria Santos' } })
		expect(JSON.stringify(asked.body)).not.toContain('Penicillin')
		const unchanged = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		expect(unchanged!.confirmedAt!.getTime()).toBeLessThan(Date.now() - 100 * 86_400_000)

		const pressed = await press(token)
		expect(pressed.status).toBe(303)
		expect(pressed.headers.get('location')).toBe(`/review/${token}?confirmed=1`)
		expect(await open(token, '?confirmed=1')).toMatchObject({ body: { link: { state: 'used' }, justConfirmed: true } })
		const confirmed = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		expect(Date.now() - confirmed!.confirmedAt!.getTime()).toBeLessThan(60_000)
		expect((await press(token)).status).toBe(410)
	})

	test('an unknown token is a 404, GET and POST alike', async () => {
		expect((await open('x'.repeat(43))).status).toBe(404)
		expect((await press('x'.repeat(43))).status).toBe(404)
		expect((await open('y'.repeat(500))).status).toBe(404)
	})
})
