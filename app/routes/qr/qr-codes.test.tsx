import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { HELPING_REFUSALS, helpingReportsOf, newResponderKey, reportHelping } from '#app/domain/responder/helping.server.ts'
import { callDashboard } from '#tests/dashboard.ts'
import { claimant, createCode, createUser, call, formRequest, getRequest, sessionCookie, testAddress, unwrap } from '#tests/factories.ts'
import { claimCode } from '#app/domain/claims/claims.server.ts'
import { renderAt, tagsWith } from '#tests/render.tsx'
import { fullProfile } from '#tests/profiles.ts'
import * as qrPage from './qr-codes.tsx'

describe('QR Codes tab action', () => {
	test('an intent no form posts is a 400 naming it, with the message on the form', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		for (const intent of ['explode', 'save-profile']) {
			const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { intent, codeId: '1' }, { cookie }))
			expect(await unwrap(result)).toMatchObject({
				status: 400,
				body: { intent, result: { status: 'error', error: { '': [UNKNOWN_ACTION] } } },
			})
		}
		const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { codeId: '1' }, { cookie }))
		expect(await unwrap(result)).toMatchObject({ status: 400, body: { intent: '', result: { error: { '': [UNKNOWN_ACTION] } } } })
	})

	test('a customised look that is refused comes back beside the code form, as typed', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		const fields = { intent: 'customize', codeId: '1', color: '#123456', customText: 'Call Ana' }
		const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', fields, { cookie }))
		expect(await unwrap(result)).toMatchObject({
			status: 400,
			body: {
				intent: 'customize',
				result: { error: { color: ['Please choose a QR colour from the palette'] }, initialValue: { customText: 'Call Ana' } },
			},
		})
	})

	test('a known intent about a code that is not the caller’s is a 404', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		for (const codeId of ['999999999', 'abc', '']) {
			const { result } = await call(qrPage.action, formRequest('/dashboard/qr-codes', { intent: 'toggle', codeId }, { cookie }))
			expect((await unwrap(result)).status, codeId).toBe(404)
		}
	})
})

describe('deleting a code', () => {
	test('comes back naming it: focus goes to the next card’s first control, else the list’s heading', async () => {
		const { user, profile } = await fullProfile()
		for (const _ of [1, 2]) await claimCode(claimant(user.id), (await createCode()).pin, { profileId: profile.id })
		const cookie = await sessionCookie(user.id)
		const [newest, middle, oldest] = (await db.query.qrCodes.findMany({ where: eq(s.qrCodes.userId, user.id) }))
			.map((c) => c.id)
			.sort((a, b) => b - a)
		const remove = async (codeId: number) =>
			unwrap(
				(await call(qrPage.action, formRequest('/dashboard/qr-codes', { intent: 'delete', codeId: String(codeId) }, { cookie }))).result,
			)
		const focused = async (deleted: number) => {
			const url = `/dashboard/qr-codes?deleted=${deleted}`
			const loaderData = (await unwrap((await callDashboard(qrPage.loader, getRequest(url, cookie))).result)).body as never
			const html = renderAt(url, () => <qrPage.default loaderData={loaderData} actionData={undefined} params={{}} matches={[] as never} />)
			return tagsWith(html, { autofocus: '' })
		}

		expect(await remove(middle!)).toHaveRedirect(`/dashboard/qr-codes?deleted=${middle}`)
		// Without JavaScript, the next card's Customise has the page's first focus (with it, the same element takes it).
		expect(await focused(middle!)).toMatchObject([{ tag: 'a', id: `customise-code-${oldest}` }])
		expect(await remove(oldest!)).toHaveRedirect(`/dashboard/qr-codes?deleted=${oldest}`)
		expect(await focused(oldest!)).toMatchObject([{ tag: 'h2', id: 'codes-title', tabindex: '-1' }])
		await remove(newest!)
		expect(await focused(newest!)).toMatchObject([{ tag: 'h1', id: 'qr-codes-title', tabindex: '-1' }])
	})
})

describe('"I\'m helping" messages on the scan history', () => {
	test('the owner reads them and blocks a sender from the page; another account cannot', async () => {
		const { user, code } = await fullProfile()
		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const codeId = String(codeRow!.id)
		const prankster = testAddress()
		await reportHelping(code.token, newResponderKey(), { where: 'Call http://evil.example' }, { userAgent: null, address: prankster })
		const cookie = await sessionCookie(user.id)
		const page = await unwrap(
			(await callDashboard(qrPage.loader, getRequest(`/dashboard/qr-codes?code=${codeId}&history=${codeId}`, cookie))).result,
		)
		const reports = (page.body as { history: { reports: { id: number; message: string; blocked: boolean }[] } }).history.reports
		expect(reports).toMatchObject([{ message: 'Where: Call http://evil.example', blocked: false }])

		const other = await sessionCookie((await createUser()).id)
		const fields = { intent: 'block-sender', codeId, reportId: String(reports[0]!.id) }
		const refused = await callDashboard(qrPage.action, formRequest('/dashboard/qr-codes', fields, { cookie: other }))
		expect((await unwrap(refused.result)).status).toBe(404)
		const blocked = await callDashboard(qrPage.action, formRequest('/dashboard/qr-codes', fields, { cookie }))
		expect((blocked.result as Response).status).toBe(302)
		expect((blocked.result as Response).headers.get('location')).toBe(`/dashboard/qr-codes?code=${codeId}&history=${codeId}#history-title`)
		expect(await helpingReportsOf(codeRow!.id)).toMatchObject([{ blocked: true }])
		const again = reportHelping(code.token, newResponderKey(), { where: 'again' }, { userAgent: null, address: prankster })
		await expect(again).rejects.toMatchObject({ status: 403, message: HELPING_REFUSALS.blocked })
	})
})

describe('the scan history shows what the admin QR scans tab records of the code', () => {
	test('the emergency access a responder made, with the hospital they named, read back in clear for the owner', async () => {
		const { user, code } = await fullProfile()
		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const codeId = String(codeRow!.id)
		const hospital = 'St. Elsewhere General'
		await reportHelping(code.token, newResponderKey(), { hospital }, { userAgent: null, address: testAddress() })
		const cookie = await sessionCookie(user.id)
		const page = await unwrap(
			(await callDashboard(qrPage.loader, getRequest(`/dashboard/qr-codes?code=${codeId}&history=${codeId}`, cookie))).result,
		)
		const scans = (page.body as { history: { scans: unknown[] } }).history.scans
		expect(scans).toMatchObject([{ scannerType: 'emergency_responder', isEmergencyAccess: true, medicalFacility: hospital }])
	})
})
