import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, count, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import * as home from '#app/routes/home.tsx'
import * as files from '#app/routes/files.ts'
import { requestToastContext } from '#app/utils/toast.server.ts'
import { renderMedicalScreen, tagsWith } from '#tests/render.tsx'
import { call, createCode, createUser, getRequest, multipartRequest, SAMPLE_FILES, sessionCookie, unwrap } from '#tests/factories.ts'

async function person() {
	const user = await createUser()
	return { user, cookie: await sessionCookie(user.id) }
}

async function post(cookie: string, fields: Record<string, string>, upload: Record<string, File> = {}) {
	const { result, context } = await call(home.action, multipartRequest('/dashboard', fields, upload, cookie))
	const response = await unwrap(result)
	return { ...response, toast: context.get(requestToastContext), text: JSON.stringify(response.body) }
}

async function withProfile() {
	const p = await person()
	const saved = await post(p.cookie, { intent: 'save-profile', firstName: 'Ada', lastName: 'Lovelace' })
	const profile = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.userId, p.user.id) })
	expect(saved.status).toBe(302)
	return { ...p, profileId: String(profile!.id), profile: profile! }
}

/** The stored files of one person (keys are users/{id}/…): other tests running beside this one store theirs too. */
function uploadedFiles(userId: string) {
	const dir = join(process.env.DATA_DIR!, 'uploads', 'users', userId)
	if (!existsSync(dir)) return 0
	return readdirSync(dir, { recursive: true }).filter((f) => String(f).match(/\.(pdf|png|jpe?g|docx?|gif|webp)$/)).length
}

describe('profile save', () => {
	test('creates the own profile on first save, then updates it', async () => {
		const p = await person()
		const first = await post(p.cookie, { intent: 'save-profile', firstName: 'Ada', lastName: 'Lovelace', bloodType: 'O-' })
		expect(first.status).toBe(302)
		const profiles = await db.query.medicalProfiles.findMany({ where: eq(s.medicalProfiles.userId, p.user.id) })
		expect(profiles).toHaveLength(1)
		expect(profiles[0]).toMatchObject({ fullName: 'Ada Lovelace', relationshipToUser: 'self', bloodType: 'O-', isScannable: true })
		const second = await post(p.cookie, {
			intent: 'save-profile',
			profileId: String(profiles[0]!.id),
			firstName: 'Ada',
			lastName: 'King',
			bloodType: '',
		})
		expect(second.status).toBe(302)
		const after = await db.query.medicalProfiles.findMany({ where: eq(s.medicalProfiles.userId, p.user.id) })
		expect(after).toHaveLength(1)
		expect(after[0]).toMatchObject({ fullName: 'Ada King', bloodType: null })
	})

	test('sections need a saved profile first', async () => {
		const p = await person()
		const refused = await post(p.cookie, { intent: 'add-contact', name: 'Bob', relationship: 'Brother', phoneNumber: '555 0100' })
		expect(refused.status).toBe(400)
		expect(refused.toast).toMatchObject({ title: 'Create Profile First' })
		expect(refused.text).toContain('Please save your basic medical profile information before adding')
		// What was typed comes back into the form.
		expect(refused.body).toMatchObject({ intent: 'add-contact', result: { initialValue: { name: 'Bob', phoneNumber: '555 0100' } } })
	})

	test('bad values answer 400 with a message beside the field and change nothing', async () => {
		const { cookie, profileId, profile } = await withProfile()
		const bad = await post(cookie, { intent: 'save-profile', profileId, firstName: 'Ada', bloodType: 'Z+', dateOfBirth: '2999-01-01' })
		expect(bad.status).toBe(400)
		expect(bad.text).toContain('The date cannot be in the future')
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) }))?.bloodType).toBe(profile.bloodType)
	})
})

describe('intents', () => {
	test('an intent no form posts is a 400 that changes nothing, with or without a profile', async () => {
		const p = await person()
		const none = await post(p.cookie, { intent: 'explode', firstName: 'Ada' })
		expect(none).toMatchObject({ status: 400, body: { intent: 'explode', result: { status: 'error', error: { '': [UNKNOWN_ACTION] } } } })
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.userId, p.user.id) })).toBeUndefined()

		const { cookie, profileId, profile } = await withProfile()
		for (const intent of ['explode', '', 'toggle']) {
			const refused = await post(cookie, { intent, profileId, firstName: 'Eve' })
			expect(refused).toMatchObject({ status: 400, body: { result: { error: { '': [UNKNOWN_ACTION] } } } })
		}
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })).toMatchObject({
			fullName: 'Ada Lovelace',
		})
	})
})

describe('section validation (spec 001 §5)', () => {
	test.each([
		['add-contact', {}, ['Name is required', 'Relationship is required', 'Phone number is required']],
		['add-contact', { name: 'A', relationship: 'B', phoneNumber: '555 0100', email: 'nope' }, ['Please enter a valid email address']],
		['add-allergy', {}, ['Allergen is required', 'Severity is required']],
		['add-medication', {}, ['Medication name is required']],
		['add-condition', {}, ['Condition is required', 'Status is required']],
		['save-policy', {}, ['Insurance company name is required']],
		['add-family', { fullName: '', relationshipToUser: 'child', pin: 'ABC' }, ['Name is required', 'PIN must be 8 characters']],
	])('%s %o', async (intent, fields, messages) => {
		const { cookie, profileId } = await withProfile()
		const response = await post(cookie, { intent, profileId, ...(fields as Record<string, string>) })
		expect(response.status).toBe(400)
		for (const message of messages) expect(response.text).toContain(message)
	})

	test('each section item is added, medications and conditions edited, and deleted', async () => {
		const { cookie, profileId, profile } = await withProfile()
		expect(
			(await post(cookie, { intent: 'add-contact', profileId, name: 'Bob', relationship: 'Brother', phoneNumber: '+1 555 0100' })).status,
		).toBe(302)
		expect(
			(await post(cookie, { intent: 'add-allergy', profileId, allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' }))
				.status,
		).toBe(302)
		expect((await post(cookie, { intent: 'add-medication', profileId, name: 'Warfarin', dosage: '5 mg' })).status).toBe(302)
		expect((await post(cookie, { intent: 'add-condition', profileId, condition: 'Epilepsy', status: 'Chronic' })).status).toBe(302)
		expect(
			(
				await post(
					cookie,
					{ intent: 'save-policy', profileId, provider: 'Acme Health', planType: 'PPO' },
					{ cardFrontPhoto: SAMPLE_FILES.png() },
				)
			).status,
		).toBe(302)
		const [medication] = await db.select().from(s.medications).where(eq(s.medications.medicalProfileId, profile.id))
		expect(
			(await post(cookie, { intent: 'update-medication', profileId, id: String(medication!.id), name: 'Warfarin', dosage: '7.5 mg' }))
				.status,
		).toBe(302)
		expect((await db.query.medications.findFirst({ where: eq(s.medications.id, medication!.id) }))?.dosage).toBe('7.5 mg')
		const [policy] = await db.select().from(s.insurancePolicies).where(eq(s.insurancePolicies.medicalProfileId, profile.id))
		expect(policy?.cardFrontPhotoKey).toMatch(/^users\/.+\/insurance-card\/.+\.png$/)
		expect((await post(cookie, { intent: 'delete-medication', profileId, id: String(medication!.id) })).status).toBe(302)
		expect(await db.select().from(s.medications).where(eq(s.medications.medicalProfileId, profile.id))).toHaveLength(0)
	})
})

describe('deleting a row asks first', () => {
	const allergies = (profileId: number) =>
		db.select().from(s.allergies).where(eq(s.allergies.medicalProfileId, profileId)).orderBy(s.allergies.id)

	async function withAllergies(...names: string[]) {
		const p = await withProfile()
		for (const allergen of names) await post(p.cookie, { intent: 'add-allergy', profileId: p.profileId, allergen, severity: 'Mild' })
		return { ...p, rows: await allergies(p.profile.id) }
	}

	test('Delete is a link to a question; only its own submit deletes, and the screen comes back naming the row', async () => {
		const { cookie, profileId, profile, rows } = await withAllergies('Penicillin', 'Latex', 'Peanuts')
		const latex = rows[1]!
		const screen = (await renderMedicalScreen(cookie, `profile=${profileId}`)).html
		expect(tagsWith(screen, { 'aria-label': 'Delete allergy Latex' })).toMatchObject([
			{ tag: 'a', href: `/dashboard?profile=${profileId}&delete=allergies%3A${latex.id}` },
		])
		expect(tagsWith(screen, { value: 'delete-allergy' })).toEqual([])
		expect(tagsWith(screen, { role: 'dialog' })).toEqual([])

		// The question: it names the row, starts on its way out, and its form carries the row.
		const asked = (await renderMedicalScreen(cookie, `profile=${profileId}&delete=allergies%3A${latex.id}`)).html
		expect(asked).toContain('Delete allergy Latex?')
		expect(tagsWith(asked, { role: 'dialog' })).toHaveLength(1)
		expect(tagsWith(asked, { autofocus: '' })).toMatchObject([{ tag: 'a', 'aria-label': 'Close' }])
		expect(tagsWith(asked, { name: 'id', value: String(latex.id) })).toHaveLength(1)
		expect(tagsWith(asked, { name: 'intent', value: 'delete-allergy' })).toMatchObject([{ tag: 'button', type: 'submit' }])
		expect(tagsWith(asked, { href: `/dashboard?profile=${profileId}#delete-allergies-${latex.id}` }).length).toBeGreaterThan(0)
		expect(tagsWith(screen, { id: `delete-allergies-${latex.id}` })).toMatchObject([{ tag: 'a', 'aria-label': 'Delete allergy Latex' }])
		expect(await allergies(profile.id)).toEqual(rows)

		const deleted = await post(cookie, { intent: 'delete-allergy', profileId, id: String(latex.id) })
		expect(deleted).toHaveRedirect(`/dashboard?profile=${profileId}&deleted=allergies%3A${latex.id}`)
		await expect(deleted).toSendToast({ type: 'success', description: 'Allergy deleted successfully' })
		expect(await allergies(profile.id)).toEqual([rows[0], rows[2]])
		const audit = await db.select().from(s.profileAudit).where(eq(s.profileAudit.profileId, profile.id))
		expect(audit.filter((e) => e.action === 'allergies-removed').map((e) => e.detail)).toEqual([`#${latex.id}`])

		// Back on the screen without JavaScript, the section's heading has the page's first focus (the next row's first
		// control takes it once scripts run); nothing else asks for it.
		const after = (await renderMedicalScreen(cookie, `profile=${profileId}&deleted=allergies%3A${latex.id}`)).html
		expect(tagsWith(after, { autofocus: '' })).toMatchObject([{ tag: 'h2', id: 'allergies-title', tabindex: '-1' }])
	})

	test('the question is only about a row of the profile shown; an unknown or another person’s row is refused', async () => {
		const a = await withAllergies('Penicillin')
		const b = await withAllergies('Latex')
		const theirs = a.rows[0]!
		const asked = (await renderMedicalScreen(b.cookie, `profile=${b.profileId}&delete=allergies:${theirs.id}`)).html
		expect(tagsWith(asked, { role: 'dialog' })).toEqual([])
		expect(asked).not.toContain('Penicillin')
		for (const id of [String(theirs.id), '999999999', '']) {
			const refused = await post(b.cookie, { intent: 'delete-allergy', profileId: b.profileId, id })
			expect(refused.status, id).toBe(404)
		}
		expect(await allergies(a.profile.id)).toEqual(a.rows)
		expect(await allergies(b.profile.id)).toEqual(b.rows)
		const unknown = await post(b.cookie, { intent: 'delete-allergies', profileId: b.profileId, id: String(b.rows[0]!.id) })
		expect(unknown.status).toBe(400)
		expect(unknown.text).toContain(UNKNOWN_ACTION)
		expect(await allergies(b.profile.id)).toEqual(b.rows)
	})

	test('every list names the row it deleted, under the section it is shown in', async () => {
		const { cookie, profileId, profile } = await withProfile()
		await post(cookie, { intent: 'add-contact', profileId, name: 'Bob', relationship: 'Brother', phoneNumber: '+1 555 0100' })
		await post(cookie, { intent: 'add-medication', profileId, name: 'Warfarin' })
		await post(cookie, { intent: 'add-condition', profileId, condition: 'Epilepsy', status: 'Chronic' })
		await post(cookie, { intent: 'save-policy', profileId, provider: 'Acme Health' })
		const first = async (
			table: typeof s.medications | typeof s.emergencyContacts | typeof s.medicalConditions | typeof s.insurancePolicies,
		) => (await db.select({ id: table.id }).from(table).where(eq(table.medicalProfileId, profile.id)))[0]
		const rows = {
			contacts: await first(s.emergencyContacts),
			medications: await first(s.medications),
			conditions: await first(s.medicalConditions),
			insurance: await first(s.insurancePolicies),
		}
		const intents = {
			contacts: 'delete-contact',
			medications: 'delete-medication',
			conditions: 'delete-condition',
			insurance: 'delete-policy',
		}
		for (const [list, row] of Object.entries(rows) as Array<[keyof typeof intents, { id: number } | undefined]>) {
			const asked = (await renderMedicalScreen(cookie, `profile=${profileId}&delete=${list}:${row!.id}`)).html
			expect(tagsWith(asked, { name: 'intent', value: intents[list] }), list).toHaveLength(1)
			const deleted = await post(cookie, { intent: intents[list], profileId, id: String(row!.id) })
			expect(deleted).toHaveRedirect(`/dashboard?profile=${profileId}&deleted=${list}%3A${row!.id}`)
		}
	})

	test('a document’s Delete, Clear DNR Status and Clear Notes ask first; only the confirmed submit acts', async () => {
		const { cookie, profileId, profile } = await withProfile()
		await post(cookie, { intent: 'save-dnr', profileId, dnrStatus: 'DNR' }, { document: SAMPLE_FILES.pdf() })
		await post(cookie, { intent: 'upload-document', profileId }, { document: SAMPLE_FILES.pdf() })
		await post(
			cookie,
			{ intent: 'upload-document', profileId },
			{ document: new File([await SAMPLE_FILES.pdf().arrayBuffer()], 'second.pdf', { type: 'application/pdf' }) },
		)
		await post(cookie, { intent: 'save-notes', profileId, additionalNotes: 'Carries an EpiPen' })
		const documents = () => db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.medicalProfileId, profile.id))
		const stored = () => db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		const [first, second] = await documents()
		const before = await stored()
		expect(before).toMatchObject({ dnrStatus: 'DNR', additionalNotes: 'Carries an EpiPen' })

		// On the screen each is a link to its question; no form there deletes or clears.
		const screen = (await renderMedicalScreen(cookie, `profile=${profileId}`)).html
		const asks: Record<string, { link: Record<string, string>; intent: string; title: string }> = {
			[`documents:${first!.id}`]: {
				link: { 'aria-label': 'Delete document directive.pdf' },
				intent: 'delete-document',
				title: 'Delete document directive.pdf?',
			},
			dnr: { link: { id: 'delete-dnr' }, intent: 'clear-dnr', title: 'Clear DNR Status?' },
			notes: { link: { id: 'delete-notes' }, intent: 'clear-notes', title: 'Clear Notes?' },
		}
		for (const [what, ask] of Object.entries(asks)) {
			expect(tagsWith(screen, ask.link), what).toMatchObject([
				{ tag: 'a', href: `/dashboard?profile=${profileId}&delete=${encodeURIComponent(what)}` },
			])
			expect(tagsWith(screen, { value: ask.intent }), what).toEqual([])
			const asked = (await renderMedicalScreen(cookie, `profile=${profileId}&delete=${encodeURIComponent(what)}`)).html
			expect(asked, what).toContain(ask.title)
			expect(tagsWith(asked, { autofocus: '' }), what).toMatchObject([{ tag: 'a', 'aria-label': 'Close' }])
			expect(tagsWith(asked, { name: 'intent', value: ask.intent }), what).toMatchObject([{ tag: 'button', type: 'submit' }])
			expect(tagsWith(asked, { href: `/dashboard?profile=${profileId}#delete-${what.replace(':', '-')}` }).length, what).toBeGreaterThan(0)
		}
		expect(await documents()).toHaveLength(2)
		expect(await stored()).toEqual(before)

		const deleted = await post(cookie, { intent: 'delete-document', profileId, id: String(first!.id) })
		expect(deleted).toHaveRedirect(`/dashboard?profile=${profileId}&deleted=documents%3A${first!.id}`)
		await expect(deleted).toSendToast({ type: 'success', description: 'Document deleted successfully' })
		expect((await documents()).map((d) => d.id)).toEqual([second!.id])
		const cleared = await post(cookie, { intent: 'clear-dnr', profileId })
		expect(cleared).toHaveRedirect(`/dashboard?profile=${profileId}&deleted=dnr`)
		const notes = await post(cookie, { intent: 'clear-notes', profileId })
		expect(notes).toHaveRedirect(`/dashboard?profile=${profileId}&deleted=notes`)
		await expect(notes).toSendToast({ type: 'success', description: 'Medical notes cleared' })
		expect(await stored()).toMatchObject({ dnrStatus: null, additionalNotes: null })

		// Without JavaScript the section's heading has the page's first focus.
		for (const [deletedNow, heading] of [
			[`documents%3A${first!.id}`, 'documents-title'],
			['dnr', 'dnr-title'],
			['notes', 'notes-title'],
		]) {
			const after = (await renderMedicalScreen(cookie, `profile=${profileId}&deleted=${deletedNow}`)).html
			expect(tagsWith(after, { autofocus: '' }), heading).toMatchObject([{ tag: 'h2', id: heading, tabindex: '-1' }])
		}
	})

	test('another person’s document is neither asked about nor deleted', async () => {
		const a = await withProfile()
		const b = await withProfile()
		await post(a.cookie, { intent: 'upload-document', profileId: a.profileId }, { document: SAMPLE_FILES.pdf() })
		const [theirs] = await db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.medicalProfileId, a.profile.id))
		const asked = (await renderMedicalScreen(b.cookie, `profile=${b.profileId}&delete=documents:${theirs!.id}`)).html
		expect(tagsWith(asked, { role: 'dialog' })).toEqual([])
		expect(asked).not.toContain('directive.pdf')
		for (const profileId of [b.profileId, a.profileId]) {
			const refused = await post(b.cookie, { intent: 'delete-document', profileId, id: String(theirs!.id) })
			expect(refused.status, profileId).toBe(404)
		}
		expect(await db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.id, theirs!.id))).toHaveLength(1)
	})
})

describe('family profiles', () => {
	test('a valid PIN creates the profile and claims its sticker in one go; an invalid one creates nothing', async () => {
		const { user, cookie, profileId } = await withProfile()
		const code = await createCode()
		const created = await post(cookie, {
			intent: 'add-family',
			profileId,
			fullName: 'Grace',
			relationshipToUser: 'child',
			pin: code.pin.toLowerCase(),
		})
		expect(created.status).toBe(302)
		const child = await db.query.medicalProfiles.findFirst({
			where: and(eq(s.medicalProfiles.userId, user.id), eq(s.medicalProfiles.relationshipToUser, 'child')),
		})
		expect(child?.relationshipToUser).toBe('child')
		expect(await db.query.qrCodes.findFirst({ where: eq(s.qrCodes.pin, code.pin) })).toMatchObject({
			userId: user.id,
			medicalProfileId: child!.id,
		})

		const before = await db.select({ n: count() }).from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))
		const refused = await post(cookie, { intent: 'add-family', profileId, fullName: 'Again', relationshipToUser: 'child', pin: code.pin })
		expect(refused.status).toBe(400)
		expect(refused.text).toContain('Invalid or already claimed PIN')
		expect(await db.select({ n: count() }).from(s.medicalProfiles).where(eq(s.medicalProfiles.userId, user.id))).toEqual(before)
	})

	test('the last profile cannot be deleted; another can, with its files', async () => {
		const { user, cookie, profileId } = await withProfile()
		const last = await post(cookie, { intent: 'delete-profile', profileId })
		expect(last.status).toBe(400)
		expect(last.toast).toMatchObject({ title: 'Cannot Delete', description: 'You must have at least one profile.' })
		const code = await createCode()
		await post(cookie, { intent: 'add-family', profileId, fullName: 'Kid', relationshipToUser: 'child', pin: code.pin })
		const kid = await db.query.medicalProfiles.findFirst({
			where: and(eq(s.medicalProfiles.userId, user.id), eq(s.medicalProfiles.relationshipToUser, 'child')),
		})
		await post(cookie, { intent: 'upload-document', profileId: String(kid!.id) }, { document: SAMPLE_FILES.pdf() })
		const filesBefore = uploadedFiles(user.id)
		const deleted = await post(cookie, { intent: 'delete-profile', profileId: String(kid!.id) })
		expect(deleted).toHaveRedirect('/dashboard?deleted=profile')
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, kid!.id) })).toBeUndefined()
		expect(uploadedFiles(user.id)).toBe(filesBefore - 1)
		// Its Delete went with it: without JavaScript the profile selector has the page's first focus.
		const after = (await renderMedicalScreen(cookie, 'deleted=profile')).html
		expect(tagsWith(after, { autofocus: '' })).toMatchObject([{ tag: 'select', id: 'selected-profile', name: 'profile' }])
	})
})

describe('DNR, notes, documents', () => {
	test('DNR and POLST need a document; clearing removes status, document and file', async () => {
		const { user, cookie, profileId, profile } = await withProfile()
		const refused = await post(cookie, { intent: 'save-dnr', profileId, dnrStatus: 'DNR' })
		expect(refused.status).toBe(400)
		expect(refused.text).toContain('Please upload a document for DNR or POLST status')
		expect(refused.toast).toMatchObject({ title: 'Document Required', description: 'Please upload a document for DNR or POLST status' })
		const notADocument = await post(cookie, { intent: 'save-dnr', profileId, dnrStatus: 'DNR' }, { document: SAMPLE_FILES.executable() })
		expect(notADocument.status).toBe(400)
		expect(notADocument.body).toMatchObject({
			intent: 'save-dnr',
			result: { error: { document: [expect.stringContaining('does not match')] } },
		})
		expect(notADocument.toast).toMatchObject({ title: 'Upload Failed', description: 'Failed to upload document. Please try again.' })
		const saved = await post(
			cookie,
			{ intent: 'save-dnr', profileId, dnrStatus: 'POLST', dnrDocumentDate: '2025-03-01', dnrOriginalLocation: 'On the fridge' },
			{ document: SAMPLE_FILES.pdf() },
		)
		expect(saved.status).toBe(302)
		const withDnr = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })
		expect(withDnr).toMatchObject({ dnrStatus: 'POLST', dnrDocumentName: 'directive.pdf', dnrOriginalLocation: 'On the fridge' })
		const filesBefore = uploadedFiles(user.id)
		expect((await post(cookie, { intent: 'clear-dnr', profileId })).status).toBe(302)
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })).toMatchObject({
			dnrStatus: null,
			dnrDocumentKey: null,
			dnrDocumentName: null,
		})
		expect(uploadedFiles(user.id)).toBe(filesBefore - 1)
	})

	test('notes are saved and cleared', async () => {
		const { cookie, profileId, profile } = await withProfile()
		await post(cookie, { intent: 'save-notes', profileId, additionalNotes: 'Carries an EpiPen' })
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) }))?.additionalNotes).toBe(
			'Carries an EpiPen',
		)
		await post(cookie, { intent: 'clear-notes', profileId, additionalNotes: 'ignored' })
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) }))?.additionalNotes).toBeNull()
	})

	test('a renamed executable, an oversized file and an image named .pdf are refused and nothing is stored', async () => {
		const { user, cookie, profileId, profile } = await withProfile()
		const before = uploadedFiles(user.id)
		const exe = await post(cookie, { intent: 'upload-document', profileId }, { document: SAMPLE_FILES.executable() })
		expect(exe.status).toBe(400)
		expect(exe.text).toContain("This file's content does not match its type")
		const pngAsPdf = await post(cookie, { intent: 'upload-document', profileId }, { document: SAMPLE_FILES.png('scan.pdf') })
		expect(pngAsPdf.status).toBe(400)
		expect(pngAsPdf.text).toContain("This file's content does not match its type")
		const big = new File([new Uint8Array(11 * 1024 * 1024)], 'big.pdf', { type: 'application/pdf' })
		const oversized = await post(cookie, { intent: 'upload-document', profileId }, { document: big })
		expect(oversized.status).toBe(413)
		expect(oversized.text).toContain('This file is too large. The limit is 10 MB.')
		expect(uploadedFiles(user.id)).toBe(before)
		expect(await db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.medicalProfileId, profile.id))).toHaveLength(0)

		expect((await post(cookie, { intent: 'upload-document', profileId }, { document: SAMPLE_FILES.pdf() })).status).toBe(302)
		const [doc] = await db.select().from(s.medicalDocuments).where(eq(s.medicalDocuments.medicalProfileId, profile.id))
		expect(doc).toMatchObject({ fileName: 'directive.pdf', fileType: 'pdf', description: 'Medical document: directive.pdf' })
		expect(uploadedFiles(user.id)).toBe(before + 1)
		expect((await post(cookie, { intent: 'delete-document', profileId, id: String(doc!.id) })).status).toBe(302)
		expect(uploadedFiles(user.id)).toBe(before)
	})
})

describe('ownership: another person can neither read nor change', () => {
	test("every page action on A's profile or rows by B is a 404 and changes nothing", async () => {
		const a = await withProfile()
		await post(a.cookie, { intent: 'add-contact', profileId: a.profileId, name: 'Bob', relationship: 'Brother', phoneNumber: '555 0100' })
		await post(a.cookie, { intent: 'add-allergy', profileId: a.profileId, allergen: 'Latex', severity: 'Mild' })
		await post(a.cookie, { intent: 'add-medication', profileId: a.profileId, name: 'Insulin' })
		await post(a.cookie, { intent: 'add-condition', profileId: a.profileId, condition: 'Diabetes', status: 'Active' })
		await post(a.cookie, { intent: 'save-policy', profileId: a.profileId, provider: 'Acme' })
		await post(a.cookie, { intent: 'upload-document', profileId: a.profileId }, { document: SAMPLE_FILES.pdf() })
		const pid = a.profile.id
		const ids = {
			contact: (await db.query.emergencyContacts.findFirst({ where: eq(s.emergencyContacts.medicalProfileId, pid) }))!.id,
			allergy: (await db.query.allergies.findFirst({ where: eq(s.allergies.medicalProfileId, pid) }))!.id,
			medication: (await db.query.medications.findFirst({ where: eq(s.medications.medicalProfileId, pid) }))!.id,
			condition: (await db.query.medicalConditions.findFirst({ where: eq(s.medicalConditions.medicalProfileId, pid) }))!.id,
			policy: (await db.query.insurancePolicies.findFirst({ where: eq(s.insurancePolicies.medicalProfileId, pid) }))!.id,
			document: (await db.query.medicalDocuments.findFirst({ where: eq(s.medicalDocuments.medicalProfileId, pid) }))!.id,
		}
		const snapshot = async () =>
			JSON.stringify(
				await db.query.medicalProfiles.findFirst({
					where: eq(s.medicalProfiles.id, pid),
					with: {
						emergencyContacts: true,
						allergies: true,
						medications: true,
						medicalConditions: true,
						insurancePolicies: true,
						medicalDocuments: true,
					},
				}),
			)
		const before = await snapshot()

		const b = await withProfile()
		const attempts: Array<[Record<string, string>, Record<string, File>?]> = [
			[{ intent: 'save-profile', profileId: a.profileId, firstName: 'Mallory' }],
			[{ intent: 'set-scanning', profileId: a.profileId, isScannable: 'false' }],
			[{ intent: 'save-notes', profileId: a.profileId, additionalNotes: 'x' }],
			[{ intent: 'clear-notes', profileId: a.profileId }],
			[{ intent: 'clear-dnr', profileId: a.profileId }],
			[{ intent: 'delete-profile', profileId: a.profileId }],
			[{ intent: 'add-contact', profileId: a.profileId, name: 'M', relationship: 'M', phoneNumber: '555 0100' }],
			[{ intent: 'save-dnr', profileId: a.profileId, dnrStatus: 'DNR' }, { document: SAMPLE_FILES.pdf() }],
			[{ intent: 'upload-document', profileId: a.profileId }, { document: SAMPLE_FILES.pdf() }],
			[{ intent: 'upload-picture', profileId: a.profileId }, { picture: SAMPLE_FILES.png() }],
			[{ intent: 'delete-contact', profileId: b.profileId, id: String(ids.contact) }],
			[{ intent: 'delete-allergy', profileId: b.profileId, id: String(ids.allergy) }],
			[{ intent: 'update-medication', profileId: b.profileId, id: String(ids.medication), name: 'Changed' }],
			[{ intent: 'delete-medication', profileId: b.profileId, id: String(ids.medication) }],
			[{ intent: 'update-condition', profileId: b.profileId, id: String(ids.condition), condition: 'Changed', status: 'Resolved' }],
			[{ intent: 'delete-condition', profileId: b.profileId, id: String(ids.condition) }],
			[{ intent: 'save-policy', profileId: b.profileId, id: String(ids.policy), provider: 'Changed' }],
			[{ intent: 'delete-policy', profileId: b.profileId, id: String(ids.policy) }],
			[{ intent: 'delete-document', profileId: b.profileId, id: String(ids.document) }],
		]
		for (const [fields, upload] of attempts) {
			const response = await post(b.cookie, fields, upload)
			expect(response.status, JSON.stringify(fields)).toBe(404)
		}
		expect(await snapshot()).toBe(before)

		const screen = await unwrap((await call(home.loader, getRequest(`/dashboard?profile=${pid}`, b.cookie))).result)
		const shown = (screen.body as { screen: { profile: { id: number }; profiles: Array<{ id: number }> } }).screen
		expect(shown.profile.id).toBe(b.profile.id)
		expect(shown.profiles.map((p) => p.id)).not.toContain(pid)

		for (const [kind, id] of [
			['document', ids.document],
			['card', ids.policy],
			['dnr', pid],
			['picture', pid],
		] as const) {
			const forB = await unwrap((await call(files.loader, getRequest(`/files/${kind}/${id}`, b.cookie), { kind, id: String(id) })).result)
			expect(forB.status).toBe(404)
		}
		const forA = await unwrap(
			(await call(files.loader, getRequest(`/files/document/${ids.document}`, a.cookie), { kind: 'document', id: String(ids.document) }))
				.result,
		)
		expect(forA.status).toBe(200)
		expect(forA.headers.get('content-type')).toBe('application/pdf')
		expect(forA.headers.get('cache-control')).toBe('private, no-store')
		const anonymous = await unwrap(
			(await call(files.loader, getRequest(`/files/document/${ids.document}`), { kind: 'document', id: String(ids.document) })).result,
		)
		expect(anonymous.status).toBe(302)
	})
})

describe('deleting the account', () => {
	test('deletes its files as well as its rows', async () => {
		const { deleteAccount } = await import('#app/domain/accounts/accounts.server.ts')
		const { user, cookie, profileId } = await withProfile()
		await post(cookie, { intent: 'upload-document', profileId }, { document: SAMPLE_FILES.pdf() })
		await post(cookie, { intent: 'upload-picture', profileId }, { picture: SAMPLE_FILES.png() })
		// The document, the picture and the picture's two small copies (WebP and JPEG).
		expect(uploadedFiles(user.id)).toBe(4)
		await deleteAccount(user.id)
		expect(uploadedFiles(user.id)).toBe(0)
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.userId, user.id) })).toBeUndefined()
	})
})

describe('reminders and alerts', () => {
	test('settings are saved for the profile without confirming it; a wrong interval is refused beside its field', async () => {
		const { cookie, profileId, profile } = await withProfile()
		await db.update(s.medicalProfiles).set({ confirmedAt: null }).where(eq(s.medicalProfiles.id, profile.id))
		const saved = await post(cookie, { intent: 'save-care-settings', profileId, reviewIntervalMonths: '12' })
		expect(saved.status).toBe(302)
		await expect(saved).toSendToast({ description: 'Saved: we will ask you to confirm every 12 months. Responders cannot send alerts.' })
		expect(await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) })).toMatchObject({
			reviewIntervalMonths: 12,
			helpingAlerts: false,
			confirmedAt: null,
		})
		const refused = await post(cookie, { intent: 'save-care-settings', profileId, reviewIntervalMonths: '5', helpingAlerts: 'on' })
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({ result: { error: { reviewIntervalMonths: ['Choose how often to confirm this profile'] } } })
		expect((await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profile.id) }))!.helpingAlerts).toBe(false)
	})

	test('"Still correct" on the banner confirms the profile; another person cannot', async () => {
		const { cookie, profileId, profile } = await withProfile()
		await db
			.update(s.medicalProfiles)
			.set({ confirmedAt: new Date('2025-01-01T00:00:00Z') })
			.where(eq(s.medicalProfiles.id, profile.id))
		const page = await unwrap((await call(home.loader, getRequest('/dashboard', cookie))).result)
		expect(page.body).toMatchObject({ screen: { reviewsDue: [{ id: profile.id, fullName: 'Ada Lovelace' }] } })
		const other = await person()
		expect((await post(other.cookie, { intent: 'confirm-review', profileId })).status).toBe(404)
		const confirmed = await post(cookie, { intent: 'confirm-review', profileId })
		expect(confirmed.status).toBe(302)
		await expect(confirmed).toSendToast({ title: 'Confirmed' })
		const after = await unwrap((await call(home.loader, getRequest('/dashboard', cookie))).result)
		expect(after.body).toMatchObject({ screen: { reviewsDue: [] } })
	})

	test('a contact is alerted only with an e-mail address: refused beside the field otherwise, on adding and on switching', async () => {
		const { cookie, profileId, profile } = await withProfile()
		const refused = await post(cookie, {
			intent: 'add-contact',
			profileId,
			name: 'Grace',
			relationship: 'Friend',
			phoneNumber: '555-0100',
			alertOptIn: 'on',
		})
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({ result: { error: { alertOptIn: ['Add an email address to alert this contact'] } } })
		expect(await db.$count(s.emergencyContacts, eq(s.emergencyContacts.medicalProfileId, profile.id))).toBe(0)

		await post(cookie, { intent: 'add-contact', profileId, name: 'Grace', relationship: 'Friend', phoneNumber: '555-0100' })
		const [grace] = await db.select().from(s.emergencyContacts).where(eq(s.emergencyContacts.medicalProfileId, profile.id))
		expect(grace!.alertOptIn).toBe(false)
		const switched = await post(cookie, { intent: 'set-contact-alert', profileId, id: String(grace!.id), alertOptIn: 'true' })
		expect(switched.status).toBe(400)
		expect(switched.toast?.description).toBe('Add an email address to alert this contact')

		await post(cookie, {
			intent: 'add-contact',
			profileId,
			name: 'Alan',
			relationship: 'Brother',
			phoneNumber: '555-0101',
			email: 'alan@example.test',
			alertOptIn: 'on',
		})
		const alan = (await db.select().from(s.emergencyContacts).where(eq(s.emergencyContacts.medicalProfileId, profile.id))).find(
			(c) => c.name === 'Alan',
		)
		expect(alan!.alertOptIn).toBe(true)
		const other = await person()
		expect((await post(other.cookie, { intent: 'set-contact-alert', profileId, id: String(alan!.id), alertOptIn: 'false' })).status).toBe(
			404,
		)
		const off = await post(cookie, { intent: 'set-contact-alert', profileId, id: String(alan!.id), alertOptIn: 'false' })
		await expect(off).toSendToast({ description: 'Alan will not be alerted.' })
		expect((await db.query.emergencyContacts.findFirst({ where: eq(s.emergencyContacts.id, alan!.id) }))!.alertOptIn).toBe(false)
	})
})
