import { describe, expect, test } from 'vitest'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { savePersonalInfo } from '#app/domain/profiles/profiles.server.ts'
import * as scan from '#app/routes/scan/scan.ts'
import * as auditTab from '#app/routes/admin/audit.tsx'
import { call, createUser, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { claimedProfile } from '#tests/profiles.ts'
import * as accessRecord from './access-record.tsx'

type Page = Awaited<ReturnType<typeof accessRecord.loader>>
type AdminPage = Awaited<ReturnType<typeof auditTab.loader>>

async function scannedProfile() {
	const { user, cookie, sticker, profileId } = await claimedProfile('Rita Record')
	await addRow(user.id, 'allergies', profileId, { allergen: 'Peanuts', severity: 'Severe' })
	const headers = { 'user-agent': 'Mozilla/5.0 (iPhone) AppleWebKit/605 Mobile/15E148 Safari/604.1', 'accept-language': 'en' }
	await call(
		scan.loader,
		new Request(`http://localhost:3000/scan/${sticker.token}`, { headers }),
		{ token: sticker.token },
		'2001:db8::5:1',
	)
	return { user, cookie, profileId }
}

describe('/dashboard/profile/access-record', () => {
	test('shows the account its reads and changes, with places but never addresses; filters by kind', async () => {
		const { cookie } = await scannedProfile()
		const page = (await call(accessRecord.loader, getRequest('/dashboard/profile/access-record', cookie))).result as Page
		expect(page.entries.map((e) => e.action)).toEqual(['scan', 'allergies-added', 'profile-created'])
		expect(JSON.stringify(page)).not.toContain('2001:db8::5:1')
		const reads = (await call(accessRecord.loader, getRequest('/dashboard/profile/access-record?kind=read', cookie))).result as Page
		expect(reads.entries.map((e) => e.kind)).toEqual(['read'])
		const odd = (await call(accessRecord.loader, getRequest('/dashboard/profile/access-record?kind=x&before=-1', cookie))).result as Page
		expect(odd.entries).toHaveLength(3)
	})

	test('another account sees none of it, and a visitor is sent to sign in', async () => {
		await scannedProfile()
		const other = await createUser()
		await savePersonalInfo(other.id, { firstName: 'Otto' })
		const page = (await call(accessRecord.loader, getRequest('/dashboard/profile/access-record', await sessionCookie(other.id))))
			.result as Page
		expect(page.entries.map((e) => e.action)).toEqual(['profile-created'])
		const visitor = await unwrap((await call(accessRecord.loader, getRequest('/dashboard/profile/access-record'))).result)
		expect(visitor.status).toBe(302)
	})
})

describe('/admin/audit', () => {
	test('filters the whole log; a wrong filter is named beside its field and the others still apply', async () => {
		const { user, profileId } = await scannedProfile()
		const page = (await call(auditTab.loader, getRequest(`/admin/audit?email=${encodeURIComponent(user.email)}&kind=read`)))
			.result as AdminPage
		expect(page.log.entries.map((e) => [e.profileId, e.action, e.ipAddress])).toEqual([[profileId, 'scan', '2001:db8::5:1']])
		const wrong = (await call(auditTab.loader, getRequest(`/admin/audit?email=not-an-email&profileId=${profileId}&from=2026-13-45`)))
			.result as AdminPage
		expect(wrong.errors).toEqual({ email: ['Please enter a valid email address'], from: ['Please enter a date'] })
		expect(new Set(wrong.log.entries.map((e) => e.profileId))).toEqual(new Set([profileId]))
		expect(wrong.asked.email).toBe('not-an-email')
	})
})
