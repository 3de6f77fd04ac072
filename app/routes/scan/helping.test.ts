import { messagesTo } from '#app/adapters/mail.server.ts'
import { and, desc, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db, rowsOf } from '#db/client.ts'
import * as s from '#db/schema.ts'
import {
	REPORTS_PER_SENDER,
	sendWaitingUpdates,
	setSenderBlocked,
	helpingReportsOf,
	UPDATE_GAP_SECONDS,
} from '#app/domain/responder/helping.server.ts'
import * as helping from '#app/routes/scan/helping.ts'
import { call, cookieFrom, createCode, createUser, formRequest, getRequest, testAddress, uniqueEmail } from '#tests/factories.ts'
import { fullProfile } from '#tests/profiles.ts'

/** A full profile whose son is alerted, and a daughter with an e-mail address who is not. */
async function helpedProfile() {
	const person = await fullProfile()
	const pid = person.profile.id
	const son = uniqueEmail('luis')
	const daughter = uniqueEmail('ana')
	await db.update(s.emergencyContacts).set({ email: son, alertOptIn: true }).where(eq(s.emergencyContacts.medicalProfileId, pid))
	await db.insert(s.emergencyContacts).values({
		medicalProfileId: pid,
		name: 'Ana Santos',
		relationship: 'Daughter',
		phoneNumber: '555-0101',
		email: daughter,
		alertOptIn: false,
	})
	return { ...person, son, daughter }
}

async function send(token: string, fields: Record<string, string>, cookie?: string, address = testAddress()) {
	const response = (await call(helping.action, formRequest(`/scan/${token}/helping`, fields, { cookie }), { token }, address))
		.result as Response
	return {
		status: response.status,
		location: response.headers.get('location'),
		cookie: cookieFrom(response.headers, 'hmh_helper'),
		response,
	}
}

async function sentPage(token: string, cookie?: string) {
	const response = (await call(helping.loader, getRequest(`/scan/${token}/helping`, cookie), { token })).result as Response
	return { status: response.status, location: response.headers.get('location'), html: response.status === 200 ? await response.text() : '' }
}

const alertsTo = (address: string) =>
	db
		.select()
		.from(s.emails)
		.where(and(messagesTo(address), eq(s.emails.emailType, 'helping-alert')))
		.orderBy(desc(s.emails.id))

describe("I'm helping", () => {
	test('a plain form post alerts the account holder and the opted-in contact at once, records an emergency access, and shows what was sent', async () => {
		const { user, code, son: sonAddress, daughter } = await helpedProfile()
		const sent = await send(code.token, { lang: 'en', where: 'Corner of 5th and Main', hospital: "St. Mary's" })
		expect(sent.status).toBe(303)
		expect(sent.location).toBe(`/scan/${code.token}/helping?lang=en`)
		expect(sent.cookie).toMatch(/^hmh_helper=[A-Za-z0-9_-]{43}$/)
		expect(sent.response.headers.get('set-cookie')).toMatch(
			/^hmh_helper=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/scan; HttpOnly; SameSite=Lax$/,
		)

		const [owner] = await alertsTo(user.email)
		expect(owner).toMatchObject({ subject: 'Someone is helping Maria now', status: 'pending', userId: user.id })
		expect(owner!.textBody).toContain("Taken to hospital: St. Mary's")
		expect(owner!.textBody).toContain('Where they are: Corner of 5th and Main')
		expect(owner!.textBody).toContain('turn these alerts off')
		const [son] = await alertsTo(sonAddress)
		expect(son!.textBody).toContain("listed as Maria Santos's emergency contact (Son)")
		expect(await alertsTo(daughter)).toHaveLength(0)

		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const [access] = await db.select().from(s.qrScans).where(eq(s.qrScans.qrCodeId, codeRow!.id)).orderBy(desc(s.qrScans.id))
		expect(access).toMatchObject({ isEmergencyAccess: true, scannerType: 'emergency_responder', medicalFacility: "St. Mary's" })
		// What the responder wrote is sealed at rest, in the report and in the scan history.
		const raw = rowsOf<{ message: string; facility: string }>(
			await db.execute(sql`select r.message, q.medical_facility as facility from helping_reports r, qr_scans q
				where r.qr_code_id = ${codeRow!.id} and q.id = ${access!.id}`),
		)
		expect(raw[0]!.message).not.toContain('Main')
		expect(raw[0]!.facility).not.toContain('Mary')

		const page = await sentPage(code.token, sent.cookie)
		expect(page.status).toBe(200)
		expect(page.html).toContain('the person’s account holder and 1 emergency contact(s)')
		expect(page.html).toContain('Hospital: St. Mary&#39;s')
		expect(page.html).toContain('Send an update')
	})

	test("the same responder's later message goes to the same people as an update; another responder's is a new alert", async () => {
		const { user, code, son } = await helpedProfile()
		const first = await send(code.token, { where: 'At the bus stop' })
		// From another network (a phone moving between cells): their first message from there goes at once, as an update.
		const update = await send(code.token, { hospital: 'General Hospital' }, first.cookie)
		expect(update.status).toBe(303)
		expect(update.cookie).toBe(first.cookie)
		const owner = await alertsTo(user.email)
		expect(owner.map((m) => m.subject)).toEqual(['Update: someone is helping Maria', 'Someone is helping Maria now'])
		expect(owner[0]!.textBody).toContain('Taken to hospital: General Hospital')
		expect((await alertsTo(son)).map((m) => m.subject)).toEqual(owner.map((m) => m.subject))
		const other = await send(code.token, {})
		expect(other.cookie).not.toBe(first.cookie)
		expect((await alertsTo(user.email))[0]!.subject).toBe('Someone is helping Maria now')
		expect((await alertsTo(user.email))[0]!.textBody).toContain('They did not say where they are.')
		const page = await sentPage(code.token, first.cookie)
		expect(page.html.indexOf('General Hospital')).toBeLessThan(page.html.indexOf('At the bus stop'))
	})

	test('what one sender writes after their first message waits and goes out as one update, at most every few minutes', async () => {
		const { user, code, son } = await helpedProfile()
		const address = testAddress()
		const start = Date.now()
		const first = await send(code.token, { where: 'Corner of 5th and Main' }, undefined, address)
		const second = await send(code.token, { where: 'Moved to the pharmacy' }, first.cookie, address)
		const third = await send(code.token, { hospital: 'General Hospital' }, first.cookie, address)
		expect([first.status, second.status, third.status]).toEqual([303, 303, 303])
		expect((await alertsTo(user.email)).map((m) => m.subject)).toEqual(['Someone is helping Maria now'])
		const page = await sentPage(code.token, first.cookie)
		expect(page.html).toContain('Waiting: it goes to the same people within 5 minutes')

		await sendWaitingUpdates(new Date(start + 60_000))
		expect(await alertsTo(user.email)).toHaveLength(1)
		await sendWaitingUpdates(new Date(start + UPDATE_GAP_SECONDS * 1000 + 1000))
		expect(await alertsTo(user.email)).toHaveLength(2)
		const [update] = await alertsTo(user.email)
		expect(update!.subject).toBe('Update: someone is helping Maria')
		expect(update!.textBody).toContain('sent 2 updates')
		expect(update!.textBody).toMatch(/Where they are: Moved to the pharmacy[^]*Taken to hospital: General Hospital/)
		expect(await alertsTo(son)).toHaveLength(2)
		await sendWaitingUpdates(new Date(start + 20 * 60_000))
		expect(await alertsTo(user.email)).toHaveLength(2)
	})

	test('a web address typed into "where" or "hospital" arrives as plain text, never a link, and never in the subject', async () => {
		const { user, code } = await helpedProfile()
		await send(code.token, { where: 'see www.evil.example/help', hospital: 'https://evil.example/login' })
		const [alert] = await alertsTo(user.email)
		expect(alert!.subject).toBe('Someone is helping Maria now')
		expect(alert!.textBody).toContain('Taken to hospital: https[:]//evil[.]example/login')
		expect(alert!.textBody).toContain('Where they are: see www[.]evil[.]example/help')
		expect(alert!.textBody).not.toMatch(/evil\.example/)
	})

	test('a shared location goes with the alert as a map link; an impossible one is refused and nothing is sent', async () => {
		const { user, code } = await helpedProfile()
		expect((await send(code.token, { latitude: '40.71278', longitude: '-74.00594', accuracy: '18.4' })).status).toBe(303)
		const [alert] = await alertsTo(user.email)
		expect(alert!.textBody).toContain('https://www.openstreetmap.org/?mlat=40.71278&mlon=-74.00594')
		expect(alert!.textBody).toContain('±18 m')
		const refused = await send(code.token, { latitude: '123', longitude: '0', hospital: "St. Mary's" })
		expect(refused.status).toBe(400)
		const page = await refused.response.text()
		expect(page).toContain('<p role="status">Your location could not be found; the message will go without it.</p>')
		expect(page).toContain('value="St. Mary&#39;s"')
		expect(await alertsTo(user.email)).toHaveLength(1)
	})

	test('too long a text comes back as typed on the page it was sent from, its limit and the refusal beside the field', async () => {
		const { user, code } = await helpedProfile()
		const long = `Corner of ${'Main Street and '.repeat(20)}Elm`
		const refused = await send(code.token, { where: long, hospital: "St. Mary's" })
		expect(refused.status).toBe(400)
		const page = await refused.response.text()
		// The responder page itself, titled as an error, with everything it showed.
		expect(page).toMatch(/<title>Error: Emergency medical information: Maria Santos<\/title>/)
		expect(page).toContain('<p class="hint" id="h-where-limit">Up to 300 characters.</p>')
		expect(page).toContain(
			`<input type="text" id="h-where" name="where" maxlength="300" autocomplete="off" aria-describedby="h-where-limit h-where-error" aria-invalid="true" autofocus value="${long}">`,
		)
		expect(page).toContain(`<p class="err" id="h-where-error">This has ${long.length} characters: please shorten it to 300 or fewer.</p>`)
		expect(page).toContain('value="St. Mary&#39;s"')
		expect(await alertsTo(user.email)).toHaveLength(0)

		// Once a report went, a refused update comes back on the page of what was sent, in the responder's language.
		const first = await send(code.token, { where: 'Main Street' })
		const update = await send(code.token, { hospital: 'h'.repeat(201), lang: 'es' }, first.cookie!)
		expect(update.status).toBe(400)
		const sentPage = await update.response.text()
		expect(sentPage).toContain('<title>Error: Su aviso a su familia</title>')
		expect(sentPage).toContain('Tiene 201 caracteres: acórtelo a 200 como máximo, por favor.')
		expect(sentPage).toContain(`value="${'h'.repeat(201)}"`)
		expect(await alertsTo(user.email)).toHaveLength(1)
	})

	test(`at most ${REPORTS_PER_SENDER} reports per sender and code in ten minutes; six senders spamming do not stop a seventh`, async () => {
		const { user, code } = await helpedProfile()
		const spammers = Array.from({ length: 6 }, () => testAddress())
		for (const address of spammers)
			for (let i = 0; i < REPORTS_PER_SENDER; i++)
				expect((await send(code.token, { where: `spam ${i}` }, undefined, address)).status).toBe(303)
		for (const address of spammers) {
			const refused = await send(code.token, { where: 'one more' }, undefined, address)
			expect(refused.status).toBe(429)
			expect(refused.response.headers.get('retry-after')).toBe('600')
			expect(await refused.response.text()).toContain('Too many messages for this code just now')
		}
		// Each spammer's first message went out; the rest wait to go as one update each.
		expect(await alertsTo(user.email)).toHaveLength(6)
		const responder = await send(code.token, { hospital: "St. Mary's" })
		expect(responder.status).toBe(303)
		const [alert] = await alertsTo(user.email)
		expect(alert!.textBody).toContain("Taken to hospital: St. Mary's")
	})

	test('the owner sees the reports on the scan history and blocks a sender: nothing more from them, and what waited never goes', async () => {
		const { user, code } = await helpedProfile()
		const codeRow = await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.token, code.token) })
		const prankster = testAddress()
		const first = await send(code.token, { where: 'prank 1' }, undefined, prankster)
		await send(code.token, { where: 'prank 2' }, first.cookie, prankster)
		const reports = await helpingReportsOf(codeRow!.id)
		expect(reports.map((r) => [r.message, Boolean(r.mailedAt), r.blocked])).toEqual([
			['Where: prank 2', false, false],
			['Where: prank 1', true, false],
		])
		const stranger = await createUser()
		await expect(setSenderBlocked(stranger.id, reports[0]!.id, true)).rejects.toThrow('Report not found')
		await setSenderBlocked(user.id, reports[1]!.id, true)
		expect((await helpingReportsOf(codeRow!.id)).every((r) => r.blocked)).toBe(true)
		// From the same network without the cookie, and with the cookie from elsewhere: both refused.
		const again = await send(code.token, { where: 'prank 3' }, undefined, prankster)
		expect(again.status).toBe(403)
		expect(await again.response.text()).toContain('turned off messages from this device')
		expect((await send(code.token, { where: 'prank 4' }, first.cookie)).status).toBe(403)
		await sendWaitingUpdates(new Date(Date.now() + 3_600_000))
		expect(await alertsTo(user.email)).toHaveLength(1)
		// Anyone else still gets through; and the owner can take the block back.
		expect((await send(code.token, { where: 'real' })).status).toBe(303)
		await setSenderBlocked(user.id, reports[1]!.id, false)
		expect((await send(code.token, { where: 'after unblock' }, undefined, prankster)).status).toBe(303)
	})

	test('turned off by the owner, or a code that shows nothing: refused, nothing sent, nothing recorded', async () => {
		const { user, profile, code } = await helpedProfile()
		await db.update(s.medicalProfiles).set({ helpingAlerts: false }).where(eq(s.medicalProfiles.id, profile.id))
		const off = await send(code.token, { lang: 'es', where: 'aquí' })
		expect(off.status).toBe(403)
		expect(await off.response.text()).toContain('La familia de esta persona no ha activado los avisos')
		await db.update(s.medicalProfiles).set({ helpingAlerts: true, isScannable: false }).where(eq(s.medicalProfiles.id, profile.id))
		expect((await send(code.token, { where: 'here' })).status).toBe(404)
		const unclaimed = await createCode()
		expect((await send(unclaimed.token, { where: 'here' })).status).toBe(404)
		expect((await send('not-a-token', { where: 'here' })).status).toBe(404)
		expect(await alertsTo(user.email)).toHaveLength(0)
		expect(await db.$count(s.helpingReports, eq(s.helpingReports.medicalProfileId, profile.id))).toBe(0)
	})

	test('the confirmation page shows only what this responder sent; without a report it is the responder page', async () => {
		const { code } = await helpedProfile()
		const mine = await send(code.token, { where: 'Mine' })
		await send(code.token, { where: 'Theirs' })
		const page = await sentPage(code.token, mine.cookie)
		expect(page.html).toContain('Mine')
		expect(page.html).not.toContain('Theirs')
		const stranger = await sentPage(code.token)
		expect(stranger.status).toBe(303)
		expect(stranger.location).toBe(`/scan/${code.token}?lang=en`)
	})
})
