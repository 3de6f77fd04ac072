import { and, desc, eq, max } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { consents, consentTexts } from '#db/schema.ts'
import { CONSENT_TEXTS } from '#db/seed-content.ts'
import { getConsentStatus, recordConsent } from '#app/domain/consent/consent.server.ts'
import { CONSENT_TITLES, CONSENT_TYPES, type ConsentType } from '#app/domain/consent/schemas.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import * as root from '#app/root.tsx'
import * as consentApi from '#app/routes/api/consent.ts'
import * as statusApi from '#app/routes/api/consent-status.ts'
import * as textsApi from '#app/routes/api/consent-texts.ts'
import * as consentPage from '#app/routes/consent/consent.tsx'
import * as home from '#app/routes/home.tsx'
import * as medicalInfo from '#app/routes/medical/medical-info.tsx'
import * as qrCodes from '#app/routes/qr/qr-codes.tsx'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { call, cookieFrom, createUser, formRequest, getRequest, jsonRequest, sessionCookie, TEST_CLIENT, unwrap } from '#tests/factories.ts'
import { callDashboard } from '#tests/dashboard.ts'

async function newcomer() {
	const user = await createUser({ consents: false })
	return { user, cookie: await sessionCookie(user.id) }
}

function consentRows(userId: string) {
	return db.select().from(consents).where(eq(consents.userId, userId)).orderBy(consents.id)
}

/** Publishes the next version of a form's text for the duration of `run`, as the owner would. */
async function withNewVersion(type: ConsentType, run: (version: number) => Promise<void>) {
	const [row] = await db
		.select({ latest: max(consentTexts.version) })
		.from(consentTexts)
		.where(eq(consentTexts.consentType, type))
	const version = (row?.latest ?? 0) + 1
	await db
		.insert(consentTexts)
		.values({ consentType: type, version, title: CONSENT_TITLES[type], body: `Version ${version} of the ${type} text.` })
	try {
		await run(version)
	} finally {
		await db.delete(consentTexts).where(and(eq(consentTexts.consentType, type), eq(consentTexts.version, version)))
	}
}

async function statusOf(cookie?: string) {
	return unwrap((await call(statusApi.loader, getRequest('/api/consent/status', cookie))).result)
}

function location(response: { headers: Headers }) {
	return response.headers.get('location')
}

describe('consent status', () => {
	test('a new account is missing all three forms; each agreement counts', async () => {
		const { user, cookie } = await newcomer()
		expect(await statusOf(cookie)).toMatchObject({
			status: 200,
			body: {
				allComplete: false,
				missing: ['hipaa', 'terms', 'emergency_disclaimer'],
				hasAllConsents: false,
				missingConsents: ['hipaa', 'terms', 'emergency_disclaimer'],
				validConsents: [],
				totalSigned: 0,
				totalRequired: 3,
			},
		})
		await recordConsent(user.id, 'terms', TEST_CLIENT)
		expect((await statusOf(cookie)).body).toMatchObject({
			allComplete: false,
			missing: ['hipaa', 'emergency_disclaimer'],
			validConsents: ['terms'],
			totalSigned: 1,
		})
		await recordConsent(user.id, 'hipaa', TEST_CLIENT)
		await recordConsent(user.id, 'emergency_disclaimer', TEST_CLIENT)
		expect((await statusOf(cookie)).body).toEqual({
			allComplete: true,
			missing: [],
			hasAllConsents: true,
			missingConsents: [],
			validConsents: ['hipaa', 'terms', 'emergency_disclaimer'],
			totalSigned: 3,
			totalRequired: 3,
		})
	})

	test('a refusal on record does not count as agreement', async () => {
		const { user } = await newcomer()
		await db.insert(consents).values({ userId: user.id, consentType: 'hipaa', version: 1, agreed: false })
		expect((await getConsentStatus(user.id)).missing).toContain('hipaa')
	})

	test('publishing a new version of a text asks again for that form only', async () => {
		const user = await createUser()
		expect((await getConsentStatus(user.id)).missing).toEqual([])
		await withNewVersion('terms', async (version) => {
			const status = await getConsentStatus(user.id)
			expect(status.missing).toEqual(['terms'])
			expect(status.forms.find((f) => f.consentType === 'terms')?.version).toBe(version)
			const texts = await unwrap((await call(textsApi.loader, getRequest('/api/consent/texts'))).result)
			expect((texts.body as Record<string, string>).terms).toBe(`Version ${version} of the terms text.`)
			const redirect = await unwrap(
				(await callDashboard(medicalInfo.loader, getRequest('/medical-info', await sessionCookie(user.id)))).result,
			)
			expect(location(redirect)).toBe('/consent?redirectTo=%2Fmedical-info')
			await recordConsent(user.id, 'terms', TEST_CLIENT)
			expect((await getConsentStatus(user.id)).missing).toEqual([])
			const [latest] = await db.select().from(consents).where(eq(consents.userId, user.id)).orderBy(desc(consents.id)).limit(1)
			expect(latest).toMatchObject({ consentType: 'terms', version })
		})
	})

	test('GET /api/consent/status needs a session', async () => {
		expect(await statusOf()).toMatchObject({ status: 401, body: { message: 'Unauthorized' } })
	})
})

describe('GET /api/consent/texts', () => {
	test('maps each type to its current text, signed in or not', async () => {
		const response = await unwrap((await call(textsApi.loader, getRequest('/api/consent/texts'))).result)
		expect(response.status).toBe(200)
		expect(Object.keys(response.body as object).sort()).toEqual([...CONSENT_TYPES].sort())
		for (const seeded of CONSENT_TEXTS) expect((response.body as Record<string, string>)[seeded.consentType]).toBe(seeded.body)
	})
})

describe('POST /api/consent', () => {
	test('records the current version with time, client address and user agent', async () => {
		const { user, cookie } = await newcomer()
		const request = new Request('http://localhost:3000/api/consent', {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie, 'user-agent': 'ConsentTest/1.0 (Linux)' },
			body: JSON.stringify({ consentType: 'hipaa', agreed: true }),
		})
		const context = new RouterContextProvider()
		context.set(clientAddressContext, '203.0.113.7')
		const before = Date.now()
		const response = await unwrap(
			await consentApi.action({ request, context, params: {}, url: new URL(request.url), pattern: '' } as never),
		)
		expect(response).toMatchObject({ status: 200, body: { success: true, consentType: 'hipaa', version: 1, agreed: true } })
		const rows = await consentRows(user.id)
		expect(rows).toHaveLength(1)
		expect(rows[0]).toMatchObject({
			consentType: 'hipaa',
			version: 1,
			agreed: true,
			ipAddress: '203.0.113.7',
			userAgent: 'ConsentTest/1.0 (Linux)',
		})
		expect(rows[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000)
		expect(rows[0]!.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000)
	})

	test('agreeing again (a retry, a double click, at once or later) records nothing more and answers the first agreement', async () => {
		const { user, cookie } = await newcomer()
		const agree = async () =>
			unwrap((await call(consentApi.action, jsonRequest('/api/consent', { consentType: 'terms', agreed: true }, { cookie }))).result)
		const answers = await Promise.all([agree(), agree(), agree()])
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
		expect((await agree()).body).toEqual(answers[0]!.body)
		expect(await consentRows(user.id)).toHaveLength(1)
		// The consent page sent twice at once records each form once.
		const page = () =>
			call(
				consentPage.action,
				formRequest(
					'/consent',
					{ intent: 'agree', redirectTo: '/dashboard', ...Object.fromEntries(CONSENT_TYPES.map((type) => [type, '1'])) },
					{ cookie },
				),
			)
		await Promise.all([page(), page()])
		expect((await consentRows(user.id)).map((r) => r.consentType).sort()).toEqual(['emergency_disclaimer', 'hipaa', 'terms'])
	})

	test.each([
		['an unknown type', { consentType: 'marketing', agreed: true }, 'consentType'],
		['agreed false', { consentType: 'terms', agreed: false }, 'agreed'],
		['agreed missing', { consentType: 'terms' }, 'agreed'],
		['agreed as text', { consentType: 'terms', agreed: 'yes' }, 'agreed'],
	])('%s is a 400 with the field named, and nothing is recorded', async (_, body, field) => {
		const { user, cookie } = await newcomer()
		const response = await unwrap((await call(consentApi.action, jsonRequest('/api/consent', body, { cookie }))).result)
		expect(response.status).toBe(400)
		expect((response.body as { errors: Record<string, string[]> }).errors[field]?.length).toBeGreaterThan(0)
		expect(await consentRows(user.id)).toHaveLength(0)
	})

	test('a body that is not JSON is a 400; a signed-out caller gets 401', async () => {
		const { cookie } = await newcomer()
		expect((await unwrap((await call(consentApi.action, jsonRequest('/api/consent', '{nope', { cookie }))).result)).status).toBe(400)
		const signedOut = await unwrap(
			(await call(consentApi.action, jsonRequest('/api/consent', { consentType: 'hipaa', agreed: true }))).result,
		)
		expect(signedOut).toMatchObject({ status: 401, body: { message: 'Unauthorized' } })
	})
})

describe('the consent page', () => {
	const ticks = (types: ConsentType[], version = 1) => Object.fromEntries(types.map((t) => [t, String(version)]))

	test('lists each missing form with its title and text; signed out goes to sign in', async () => {
		const { user, cookie } = await newcomer()
		await recordConsent(user.id, 'terms', TEST_CLIENT)
		const page = await unwrap((await call(consentPage.loader, getRequest('/consent?redirectTo=/medical-info', cookie))).result)
		const body = page.body as { forms: Array<{ consentType: string; title: string; body: string; version: number }>; redirectTo: string }
		expect(body.redirectTo).toBe('/medical-info')
		expect(body.forms.map((f) => [f.consentType, f.title, f.version])).toEqual([
			['hipaa', 'HIPAA-Style Medical Information Consent', 1],
			['emergency_disclaimer', 'Emergency Medical Disclaimer', 1],
		])
		expect(body.forms[0]!.body).toBe(CONSENT_TEXTS[0].body)
		const signedOut = await unwrap((await call(consentPage.loader, getRequest('/consent'))).result)
		expect(location(signedOut)).toBe('/api/login?redirectTo=%2Fconsent')
	})

	test('with nothing missing it sends the person on, never off-site', async () => {
		const cookie = await sessionCookie((await createUser()).id)
		expect(
			location(await unwrap((await call(consentPage.loader, getRequest('/consent?redirectTo=/dashboard/qr-codes', cookie))).result)),
		).toBe('/dashboard/qr-codes')
		expect(location(await unwrap((await call(consentPage.loader, getRequest('/consent?redirectTo=//evil.example', cookie))).result))).toBe(
			'/dashboard',
		)
	})

	test('refuses until every box is ticked, recording nothing', async () => {
		const { user, cookie } = await newcomer()
		for (const fields of [{}, ticks(['hipaa', 'terms']), { ...ticks(['hipaa', 'terms']), emergency_disclaimer: 'on' }]) {
			const { result, context } = await call(
				consentPage.action,
				formRequest('/consent', { intent: 'agree', redirectTo: '/dashboard', ...fields }, { cookie }),
			)
			const response = await unwrap(result)
			expect(response.status).toBe(400)
			expect(response.body).toMatchObject({ error: 'Please agree to all required consents to continue.' })
			expect(context.get(requestToastContext)).toMatchObject({
				type: 'error',
				title: 'Consent Required',
				description: 'Please agree to all required consents to continue.',
			})
		}
		expect(await consentRows(user.id)).toHaveLength(0)
	})

	test('a missing or unknown intent is a 400 that says so, recording nothing', async () => {
		const { user, cookie } = await newcomer()
		for (const intent of [{}, { intent: 'explode' }] as Array<Record<string, string>>) {
			const fields = { ...intent, redirectTo: '/dashboard', ...ticks([...CONSENT_TYPES]) }
			const response = await unwrap((await call(consentPage.action, formRequest('/consent', fields, { cookie }))).result)
			expect(response.status).toBe(400)
			expect(response.body).toMatchObject({ error: UNKNOWN_ACTION })
		}
		expect(await consentRows(user.id)).toHaveLength(0)
	})

	test('a box ticked for a text that has since changed is not agreement to the new text', async () => {
		const { user, cookie } = await newcomer()
		await withNewVersion('hipaa', async () => {
			const response = await unwrap(
				(await call(consentPage.action, formRequest('/consent', { intent: 'agree', ...ticks([...CONSENT_TYPES]) }, { cookie }))).result,
			)
			expect(response.status).toBe(400)
			expect(await consentRows(user.id)).toHaveLength(0)
		})
	})

	test('all ticked: every missing form is recorded, then on to redirectTo with "Consent Recorded"', async () => {
		const { user, cookie } = await newcomer()
		const response = await unwrap(
			(
				await call(
					consentPage.action,
					formRequest('/consent', { intent: 'agree', redirectTo: '/medical-info?profile=2', ...ticks([...CONSENT_TYPES]) }, { cookie }),
					{},
					'203.0.113.77',
				)
			).result,
		)
		expect(response.status).toBe(302)
		expect(location(response)).toBe('/medical-info?profile=2')
		expect(cookieFrom(response.headers, 'hmh_toast')).toBeTruthy()
		const toast = await unwrap(
			(await call(root.loader, getRequest('/medical-info', [cookie, cookieFrom(response.headers, 'hmh_toast')].join('; ')))).result,
		)
		expect((toast.body as { toast: { title: string } }).toast).toMatchObject({ type: 'success', title: 'Consent Recorded' })
		const rows = await consentRows(user.id)
		expect(rows.map((r) => [r.consentType, r.version, r.agreed])).toEqual([
			['hipaa', 1, true],
			['terms', 1, true],
			['emergency_disclaimer', 1, true],
		])
		expect(rows[0]!.ipAddress).toBe('203.0.113.77')
		const unsafe = await unwrap(
			(await call(consentPage.action, formRequest('/consent', { intent: 'agree', redirectTo: 'https://evil.example/' }, { cookie })))
				.result,
		)
		expect(location(unsafe)).toBe('/dashboard')
	})
})

describe('the dashboard gate and the signed-in pages', () => {
	test('the dashboard gate: signed out, /auth; missing consents, /consent and back; all given, the page', async () => {
		const signedOut = await unwrap((await callDashboard(medicalInfo.loader, getRequest('/medical-info'))).result)
		expect(location(signedOut)).toBe('/auth')
		const { cookie } = await newcomer()
		const missing = await unwrap((await callDashboard(qrCodes.loader, getRequest('/dashboard/qr-codes?preview=1', cookie))).result)
		expect(location(missing)).toBe('/consent?redirectTo=%2Fdashboard%2Fqr-codes%3Fpreview%3D1')
		const user = await createUser()
		const { result } = await callDashboard(medicalInfo.loader, getRequest('/medical-info', await sessionCookie(user.id)))
		expect(result).toMatchObject({ screen: { profiles: [] } })
	})

	test('the gate covers actions too: a person with missing consents cannot save through the page', async () => {
		const { cookie } = await newcomer()
		const refused = await unwrap(
			(
				await callDashboard(
					home.action,
					formRequest('/dashboard', { intent: 'save-profile', firstName: 'Ada', lastName: 'Lovelace' }, { cookie }),
				)
			).result,
		)
		expect(location(refused)).toBe('/consent?redirectTo=%2Fdashboard')
	})

	test('the dashboard, QR codes and medical pages stop a person with missing consents; visitors still get the landing page', async () => {
		const { cookie } = await newcomer()
		expect(location(await unwrap((await callDashboard(home.loader, getRequest('/dashboard', cookie))).result))).toBe(
			'/consent?redirectTo=%2Fdashboard',
		)
		expect(location(await unwrap((await callDashboard(home.loader, getRequest('/dashboard.data', cookie))).result))).toBe(
			'/consent?redirectTo=%2Fdashboard',
		)
		expect(location(await unwrap((await callDashboard(qrCodes.loader, getRequest('/dashboard/qr-codes', cookie))).result))).toBe(
			'/consent?redirectTo=%2Fdashboard%2Fqr-codes',
		)
		expect(location(await unwrap((await callDashboard(medicalInfo.loader, getRequest('/medical-info', cookie))).result))).toBe(
			'/consent?redirectTo=%2Fmedical-info',
		)
		expect((await unwrap((await callDashboard(home.loader, getRequest('/'))).result)).body).toMatchObject({ user: null })
		const consented = await sessionCookie((await createUser()).id)
		expect((await unwrap((await callDashboard(home.loader, getRequest('/dashboard', consented))).result)).status).toBe(200)
	})
})

describe('the notice', () => {
	async function noticeFor(cookie: string) {
		const response = await unwrap((await call(root.loader, getRequest('/claim/ABCDEFGH', cookie))).result)
		return (response.body as { consentNotice: unknown }).consentNotice
	}

	test('shows while forms are missing, and closing it is remembered for that account only', async () => {
		const { user, cookie } = await newcomer()
		expect(await noticeFor(cookie)).toEqual({ missing: 3, total: 3 })
		await recordConsent(user.id, 'hipaa', TEST_CLIENT)
		expect(await noticeFor(cookie)).toEqual({ missing: 2, total: 3 })

		const dismissed = await unwrap(
			(await call(consentPage.action, formRequest('/consent', { intent: 'dismiss-notice', redirectTo: '/claim/ABCDEFGH' }, { cookie })))
				.result,
		)
		expect(location(dismissed)).toBe('/claim/ABCDEFGH')
		const noticeCookie = cookieFrom(dismissed.headers, 'hmh_consent_notice')!
		expect(dismissed.headers.get('set-cookie')).not.toMatch(/Max-Age|Expires/i)
		expect(await noticeFor(`${cookie}; ${noticeCookie}`)).toBeNull()
		expect(await consentRows(user.id)).toHaveLength(1)

		const other = await newcomer()
		expect(await noticeFor(`${other.cookie}; ${noticeCookie}`)).toEqual({ missing: 3, total: 3 })
		expect(await noticeFor(await sessionCookie((await createUser()).id))).toBeNull()
	})

	test('with JavaScript the close answers in place instead of redirecting', async () => {
		const { cookie } = await newcomer()
		const response = await unwrap(
			(
				await call(
					consentPage.action,
					formRequest('/consent.data', { intent: 'dismiss-notice', redirectTo: '/claim/ABCDEFGH' }, { cookie }),
				)
			).result,
		)
		expect(response.status).toBe(200)
		expect(cookieFrom(response.headers, 'hmh_consent_notice')).toBeTruthy()
	})
})
