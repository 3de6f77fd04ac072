import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import * as claimPage from '#app/routes/claims/claim.tsx'
import * as home from '#app/routes/home.tsx'
import * as accountApi from '#app/routes/api/account.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as toggleApi from '#app/routes/api/qr-code-toggle.ts'
import * as qrPage from '#app/routes/qr/qr-codes.tsx'
import * as scan from '#app/routes/scan/scan.ts'
import { get, json, send } from '#tests/api.ts'
import {
	call,
	claimant,
	createCode,
	createUser,
	formRequest,
	getRequest,
	multipartRequest,
	sessionCookie,
	unwrap,
} from '#tests/factories.ts'

async function scanPage(token: string) {
	const response = (await call(scan.loader, new Request(`http://localhost:3000/scan/${token}`), { token })).result as Response
	return response.text()
}

/** An account holder with a full own profile, and a sticker claimed for a family member (with that member's facts). */
async function family() {
	const user = await createUser({ firstName: 'Olga', lastName: 'Owner' })
	const cookie = await sessionCookie(user.id)
	const own = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Olga', lastName: 'Owner' }, cookie)
	expect(own.status).toBe(201)
	const ownId = own.body.id as number
	await db.update(s.medicalProfiles).set({ dnrStatus: 'DNR' }).where(eq(s.medicalProfiles.id, ownId))
	await db.insert(s.allergies).values({ medicalProfileId: ownId, allergen: 'Latex', severity: 'Severe' })
	const sticker = await createCode()
	const child = await json(
		profileApi.action,
		'POST',
		'/api/medical-profile',
		{ fullName: 'Kid Owner', relationshipToUser: 'child', pin: sticker.pin },
		cookie,
	)
	expect(child.status).toBe(201)
	const childId = child.body.id as number
	await db.insert(s.allergies).values({ medicalProfileId: childId, allergen: 'Peanuts', severity: 'Severe' })
	expect(await scanPage(sticker.token)).toContain('Kid Owner')
	return { user, cookie, ownId, childId, sticker }
}

/** Nothing of any profile of the account: not a name, not a fact, not the DNR status. */
function expectNeutral(page: string) {
	for (const text of ['Olga', 'Owner', 'Kid', 'Latex', 'Peanuts', 'DNR', 'Do Not Resuscitate']) expect(page, text).not.toContain(text)
}

const codeRow = (id: number) => db.query.qrCodes.findFirst({ where: eq(s.qrCodes.id, id) })

describe('a code shows its own profile or nothing', () => {
	test('deleting a family profile (API) unlinks and turns off its sticker: the scan is neutral and the answer names the sticker', async () => {
		const f = await family()
		const deleted = await json(profileApi.action, 'DELETE', `/api/medical-profile/${f.childId}`, '', f.cookie, { id: String(f.childId) })
		expect(deleted).toMatchObject({ status: 200, body: { success: true, unlinkedQrCodes: [{ id: f.sticker.id, pin: f.sticker.pin }] } })
		expect(await codeRow(f.sticker.id)).toMatchObject({ userId: f.user.id, medicalProfileId: null, isActive: false })
		const page = await scanPage(f.sticker.token)
		expect(page).toContain('This code is not active')
		expectNeutral(page)
	})

	test('deleting a family profile on the page says which stickers now need a profile; the QR tab lists them', async () => {
		const f = await family()
		const { result } = await call(
			home.action,
			multipartRequest('/dashboard', { intent: 'delete-profile', profileId: String(f.childId) }, {}, f.cookie),
		)
		const response = await unwrap(result)
		expect(response).toHaveRedirect()
		await expect(response).toSendToast({
			title: 'Profile Deleted',
			description: `Profile has been deleted successfully. Its QR code (PIN ${f.sticker.pin}) is now off: link it to a profile on the QR Codes tab to turn it on again.`,
		})
		expectNeutral(await scanPage(f.sticker.token))
		const tab = await call(qrPage.loader, new Request('http://localhost:3000/dashboard/qr-codes', { headers: { cookie: f.cookie } }))
		const data = (await unwrap(tab.result)).body as { codes: Array<{ id: number; medicalProfileId: number | null }> }
		expect(data.codes.find((c) => c.id === f.sticker.id)?.medicalProfileId).toBeNull()
	})

	test('an unlinked sticker cannot be turned on until it is linked again; linking turns it on and shows that profile only', async () => {
		const f = await family()
		await json(profileApi.action, 'DELETE', `/api/medical-profile/${f.childId}`, '', f.cookie, { id: String(f.childId) })
		const toggled = await json(toggleApi.action, 'PATCH', `/api/qr-codes/${f.sticker.id}/toggle`, {}, f.cookie, {
			id: String(f.sticker.id),
		})
		expect(toggled.status).toBe(400)
		expect(toggled.body.message).toBe('Link this QR code to a profile before turning it on.')
		expectNeutral(await scanPage(f.sticker.token))

		const linked = await call(
			qrPage.action,
			formRequest(
				'/dashboard/qr-codes',
				{ intent: 'assign-profile', codeId: String(f.sticker.id), profileId: String(f.ownId) },
				{ cookie: f.cookie },
			),
		)
		expect((await unwrap(linked.result)).status).toBe(302)
		expect(await codeRow(f.sticker.id)).toMatchObject({ medicalProfileId: f.ownId, isActive: true })
		const page = await scanPage(f.sticker.token)
		expect(page).toContain('Olga Owner')
		expect(page).not.toContain('Kid Owner')
	})

	test('relinking a sticker from one profile to another shows the new profile and nothing of the old one', async () => {
		const f = await family()
		const linked = await call(
			qrPage.action,
			formRequest(
				'/dashboard/qr-codes',
				{ intent: 'assign-profile', codeId: String(f.sticker.id), profileId: String(f.ownId) },
				{ cookie: f.cookie },
			),
		)
		expect((await unwrap(linked.result)).status).toBe(302)
		const page = await scanPage(f.sticker.token)
		expect(page).toContain('Olga Owner')
		expect(page).not.toContain('Kid Owner')
		expect(page).not.toContain('Peanuts')
	})

	test('deleting the account returns the sticker to unclaimed: the scan names no one', async () => {
		const f = await family()
		const deleted = await send(
			accountApi.action,
			new Request('http://localhost:3000/api/account', { method: 'DELETE', headers: { cookie: f.cookie } }),
		)
		expect(deleted.status).toBe(200)
		expect(await codeRow(f.sticker.id)).toMatchObject({ userId: null, medicalProfileId: null })
		const page = await scanPage(f.sticker.token)
		expect(page).toContain('This QR code has not been activated yet')
		expectNeutral(page)
	})

	test('a sticker claimed with no profile yet is linked to the own profile, created and named after the account', async () => {
		const user = await createUser({ firstName: 'Nora', lastName: 'New' })
		const sticker = await createCode()
		await expect(claimCode(claimant(user.id), sticker.pin)).resolves.toMatchObject({ qrCodeId: sticker.id })
		const profiles = await db.query.medicalProfiles.findMany({ where: eq(s.medicalProfiles.userId, user.id) })
		expect(profiles).toMatchObject([{ relationshipToUser: 'self', fullName: 'Nora New' }])
		expect(await codeRow(sticker.id)).toMatchObject({ medicalProfileId: profiles[0]!.id, isActive: true })
		expect(await scanPage(sticker.token)).toContain('Nora New')
	})

	test('a sticker claimed by an account holding only a child profile goes to a new own profile, never the child', async () => {
		const user = await createUser({ firstName: 'Pat', lastName: 'Parent' })
		const cookie = await sessionCookie(user.id)
		const first = await createCode()
		expect(
			(
				await json(
					profileApi.action,
					'POST',
					'/api/medical-profile',
					{ fullName: 'Tiny Tim', relationshipToUser: 'child', pin: first.pin },
					cookie,
				)
			).status,
		).toBe(201)
		const second = await createCode()
		await expect(claimCode(claimant(user.id), second.pin)).resolves.toMatchObject({ qrCodeId: second.id })
		const page = await scanPage(second.token)
		expect(page).toContain('Pat Parent')
		expect(page).not.toContain('Tiny Tim')
		expect(await scanPage(first.token)).toContain('Tiny Tim')
	})

	test("the claim page asks whose information the code will show: a family member, or a new own profile; never another account's", async () => {
		const user = await createUser({ firstName: 'Pat', lastName: 'Parent' })
		const cookie = await sessionCookie(user.id)
		const first = await createCode()
		const child = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Tiny Tim', relationshipToUser: 'child', pin: first.pin },
			cookie,
		)
		const second = await createCode()
		const page = await unwrap((await call(claimPage.loader, getRequest(`/claim/${second.pin}`, cookie), { pin: second.pin })).result)
		expect(page.body).toMatchObject({ state: 'ready', profiles: [{ id: child.body.id, fullName: 'Tiny Tim' }] })

		const stranger = await family()
		const refused = await unwrap(
			(
				await call(claimPage.action, formRequest(`/claim/${second.pin}`, { profileId: String(stranger.ownId) }, { cookie }), {
					pin: second.pin,
				})
			).result,
		)
		expect(refused.status).toBe(404)
		expect(await codeRow(second.id)).toMatchObject({ userId: null })

		const forChild = await unwrap(
			(
				await call(claimPage.action, formRequest(`/claim/${second.pin}`, { profileId: String(child.body.id) }, { cookie }), {
					pin: second.pin,
				})
			).result,
		)
		expect(forChild.status).toBe(302)
		expect(await scanPage(second.token)).toContain('Tiny Tim')

		const third = await createCode()
		await unwrap(
			(await call(claimPage.action, formRequest(`/claim/${third.pin}`, { profileId: 'own' }, { cookie }), { pin: third.pin })).result,
		)
		const own = await scanPage(third.token)
		expect(own).toContain('Pat Parent')
		expect(own).not.toContain('Tiny Tim')
	})

	test('"own profile" calls never touch a child profile: they create the own profile instead', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const sticker = await createCode()
		const child = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Tiny Tim', relationshipToUser: 'child', pin: sticker.pin },
			cookie,
		)
		await db.insert(s.allergies).values({ medicalProfileId: child.body.id as number, allergen: 'Peanuts', severity: 'Severe' })
		expect((await get(profileApi.loader, '/api/medical-profile', cookie)).status).toBe(404)
		const own = await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Grown', lastName: 'Up' }, cookie)
		expect(own.status).toBe(201)
		expect(own.body.id).not.toBe(child.body.id)
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, child.body.id as number) })).toMatchObject({
			fullName: 'Tiny Tim',
			relationshipToUser: 'child',
		})
		const page = await scanPage(sticker.token)
		expect(page).toContain('Tiny Tim')
		expect(page).not.toContain('Grown')
	})

	test('simultaneous first saves make one own profile', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const results = await Promise.all(
			Array.from({ length: 4 }, (_, i) =>
				json(profileApi.action, 'POST', '/api/medical-profile', { firstName: `Same${i}`, lastName: 'Person' }, cookie),
			),
		)
		expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201])
		expect(await db.query.medicalProfiles.findMany({ where: eq(s.medicalProfiles.userId, user.id) })).toHaveLength(1)
	})

	test('a second "Yourself" family profile is refused beside the relationship, and its PIN stays unclaimed', async () => {
		const f = await family()
		const sticker = await createCode()
		const refused = await json(
			profileApi.action,
			'POST',
			'/api/medical-profile',
			{ fullName: 'Olga Again', relationshipToUser: 'self', pin: sticker.pin },
			f.cookie,
		)
		expect(refused).toMatchObject({
			status: 400,
			body: { errors: { relationshipToUser: ['You already have a profile for yourself. Please choose another relationship.'] } },
		})
		expect(await codeRow(sticker.id)).toMatchObject({ userId: null })
		expect(await db.query.medicalProfiles.findMany({ where: eq(s.medicalProfiles.userId, f.user.id) })).toHaveLength(2)
	})

	test('the database refuses a code linked to a profile of another account; a profile deleted behind the app clears only the link', async () => {
		const f = await family()
		const other = await family()
		await expect(db.update(s.qrCodes).set({ medicalProfileId: other.ownId }).where(eq(s.qrCodes.id, f.sticker.id))).rejects.toThrow()
		await expect(db.update(s.qrCodes).set({ userId: other.user.id }).where(eq(s.qrCodes.id, f.sticker.id))).rejects.toThrow()
		expect(await scanPage(f.sticker.token)).toContain('Kid Owner')
		await db.delete(s.medicalProfiles).where(and(eq(s.medicalProfiles.id, f.childId)))
		expect(await codeRow(f.sticker.id)).toMatchObject({ userId: f.user.id, medicalProfileId: null })
		expectNeutral(await scanPage(f.sticker.token))
	})
})
