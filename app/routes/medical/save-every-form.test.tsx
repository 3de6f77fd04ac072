import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import {
	BLOOD_TYPES,
	CONDITION_STATUSES,
	DNR_STATUSES,
	PLAN_TYPES,
	POLICY_RELATIONSHIPS,
	RELATIONSHIPS,
	SEVERITIES,
} from '#app/domain/profiles/labels.ts'
import { REVIEW_INTERVALS } from '#app/domain/reviews/schedule.ts'
import * as home from '#app/routes/home.tsx'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import * as contactsApi from '#app/routes/api/emergency-contacts.ts'
import * as policiesApi from '#app/routes/api/insurance-policies.ts'
import * as conditionsApi from '#app/routes/api/medical-conditions.ts'
import * as profileApi from '#app/routes/api/medical-profile.ts'
import * as medicationsApi from '#app/routes/api/medications.ts'
import * as uploadDocumentApi from '#app/routes/api/upload-document.ts'
import { get, json, upload } from '#tests/api.ts'
import { call, createCode, createUser, SAMPLE_FILES, sessionCookie, unwrap } from '#tests/factories.ts'
import { attributes, decode, renderMedicalScreen } from '#tests/render.tsx'

// "Nothing saved is lost by a form that does not know its value": a profile filled through the JSON API with each value
// spec 001 documents (in each of its spellings), then every form of the Medical Information screen sent as a browser
// sends it without JavaScript (the form's own rendered fields, as rendered), one field edited. Only that field changes.

/** Spec 001 §3 spells gender two ways: the profile list's (and family form's) and the profile detail's. */
const LIST_GENDERS = ['male', 'female', 'non-binary', 'other']
const DETAIL_GENDERS = ['Male', 'Female', 'Other', 'Prefer not to say']
const ROUNDS = Math.max(LIST_GENDERS.length + DETAIL_GENDERS.length, BLOOD_TYPES.length, CONDITION_STATUSES.length)
const pick = <T,>(list: readonly T[], round: number) => list[round % list.length]!

/** The save forms of the screen (delete, clear and toggle buttons are one-button forms, left out). */
const SAVES = ['save-profile', 'update-medication', 'update-condition', 'save-policy', 'save-dnr', 'save-notes', 'save-care-settings']

async function person() {
	const user = await createUser()
	return { user, cookie: await sessionCookie(user.id) }
}

const uploadDocument = (cookie: string) =>
	upload(uploadDocumentApi.action, '/api/upload-document', {}, { document: SAMPLE_FILES.pdf() }, cookie)

/** A profile with every field filled through the JSON API, with round `round`'s value of each list. */
async function filledProfile(round: number) {
	const { user, cookie } = await person()
	const gender = [...LIST_GENDERS, ...DETAIL_GENDERS][round % (LIST_GENDERS.length + DETAIL_GENDERS.length)]!
	const family = round < LIST_GENDERS.length
	const created = family
		? await json(
				profileApi.action,
				'POST',
				'/api/medical-profile',
				{
					fullName: 'Grace Hopper',
					relationshipToUser: pick(RELATIONSHIPS.slice(1), round),
					gender,
					dateOfBirth: '2015-04-01',
					pin: (await createCode()).pin,
				},
				cookie,
			)
		: await json(profileApi.action, 'POST', '/api/medical-profile', { firstName: 'Ada', gender }, cookie)
	expect(created.status).toBe(201)
	const id = String(created.body.id)
	const dnrStatus = pick(DNR_STATUSES, round)
	const document = dnrStatus === 'DNR' || dnrStatus === 'POLST' ? await uploadDocument(cookie) : null
	const put = await json(
		profileApi.action,
		'PUT',
		`/api/medical-profile/${id}`,
		{
			firstName: 'Ada',
			middleName: 'Byron',
			lastName: 'Lovelace',
			dateOfBirth: '1990-12-10',
			bloodType: pick(BLOOD_TYPES, round),
			...(family ? {} : { gender }),
			phoneNumber: '+1 555 0100',
			height: '170 cm',
			weight: '60 kg',
			hairColor: 'Brown',
			eyeColor: 'Grey',
			race: 'White',
			distinguishingMarks: 'Scar on the left hand',
			streetAddress: '1 Main St',
			city: 'Springfield',
			state: 'IL',
			zipCode: '62701',
			insurance: 'Acme PPO',
			dnrStatus,
			...(document && { dnrDocumentUrl: document.body.url, dnrDocumentName: 'directive.pdf' }),
			additionalNotes: 'Pacemaker fitted 2019',
			isScannable: round % 2 === 0,
		},
		cookie,
		{ id },
	)
	expect(put.status).toBe(200)
	const profile = { medicalProfileId: id }
	const rows: Array<[Parameters<typeof json>[0], string, Record<string, unknown>]> = [
		[
			contactsApi.action,
			'/api/emergency-contacts',
			{ name: 'Bob', relationship: 'Brother', phoneNumber: '555 0101', email: 'bob@example.com', alertOptIn: round % 2 === 0 },
		],
		...SEVERITIES.map((severity): [Parameters<typeof json>[0], string, Record<string, unknown>] => [
			allergiesApi.action,
			'/api/allergies',
			{ allergen: `Allergen ${severity}`, severity, reaction: 'Hives' },
		]),
		[medicationsApi.action, '/api/medications', { name: 'Warfarin', dosage: '5 mg', frequency: 'Daily', prescribingDoctor: 'Dr Who' }],
		[
			conditionsApi.action,
			'/api/medical-conditions',
			{ condition: 'Epilepsy', status: pick(CONDITION_STATUSES, round), diagnosedDate: '2010-01-02', notes: 'Since childhood' },
		],
		[
			policiesApi.action,
			'/api/insurance-policies',
			{
				provider: 'Acme Health',
				policyNumber: 'P-1',
				groupNumber: 'G-1',
				subscriberId: 'S-1',
				subscriberName: 'Ada Lovelace',
				relationship: pick(POLICY_RELATIONSHIPS, round),
				// One round leaves the plan type out: "Not specified" must stay so.
				...(round !== PLAN_TYPES.length && { planType: pick(PLAN_TYPES, round) }),
				effectiveDate: '2024-01-01',
				expirationDate: '2026-12-31',
				copay: '$20',
				deductible: '$500',
				providerPhone: '555 0102',
				notes: 'Primary',
			},
		],
	]
	for (const [action, path, body] of rows) expect((await json(action, 'POST', path, { ...body, ...profile }, cookie)).status).toBe(201)
	// Reminder and alert settings are the page's own (the JSON API has none): set directly.
	await db
		.update(s.medicalProfiles)
		.set({ reviewIntervalMonths: pick(REVIEW_INTERVALS, round), helpingAlerts: round % 2 === 1 })
		.where(eq(s.medicalProfiles.id, Number(id)))
	return { user, cookie, id }
}

async function view(id: string, cookie: string) {
	const shown = await get(profileApi.loader, `/api/medical-profile/${id}`, cookie, { id })
	expect(shown.status).toBe(200)
	return shown.body
}

const render = renderMedicalScreen

type Control = { name: string; value: string | File; editable: boolean }
type RenderedForm = { intent: string; id: string | null; multipart: boolean; controls: Control[] }

/** Each form of the page, with what a browser without JavaScript sends for it: its successful controls, as rendered. */
function formsOf(html: string): RenderedForm[] {
	return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, formTag, body]) => {
		const multipart = attributes(formTag!).encType === 'multipart/form-data'
		const controls: Control[] = []
		let intent = ''
		for (const [element] of body!.matchAll(
			/<input\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>|<textarea\b[^>]*>[\s\S]*?<\/textarea>|<button\b[^>]*>/g,
		)) {
			const tag = element.slice(0, element.indexOf('>') + 1)
			const a = attributes(tag)
			if (!a.name || 'disabled' in a) continue
			if (element.startsWith('<button')) {
				if ((a.type ?? 'submit') === 'submit' && a.name === 'intent') intent = a.value ?? ''
			} else if (element.startsWith('<select')) {
				const choices = [...element.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map(([, o, label]) => {
					const option = attributes(o!)
					return { value: option.value ?? decode(label!), selected: 'selected' in option }
				})
				// Nothing selected: the browser sends the first option.
				const chosen = choices.find((o) => o.selected) ?? choices[0]
				if (chosen) controls.push({ name: a.name, value: chosen.value, editable: false })
			} else if (element.startsWith('<textarea')) {
				controls.push({ name: a.name, value: decode(element.slice(tag.length, -'</textarea>'.length)), editable: true })
			} else if (a.type === 'checkbox' || a.type === 'radio') {
				if ('checked' in a) controls.push({ name: a.name, value: a.value ?? 'on', editable: false })
			} else if (a.type === 'file') {
				if (multipart) controls.push({ name: a.name, value: new File([], '', { type: 'application/octet-stream' }), editable: false })
			} else controls.push({ name: a.name, value: a.value ?? '', editable: (a.type ?? 'text') === 'text' })
		}
		return { intent, id: controls.find((c) => c.name === 'id')?.value as string | null, multipart, controls }
	})
}

/** Every leaf of a JSON value by its path; the times a save sets (updatedAt, confirmedAt) are left out. */
function leaves(value: unknown, path = ''): Record<string, unknown> {
	if (value === null || typeof value !== 'object') return { [path]: value }
	return Object.assign(
		{},
		...Object.entries(value)
			.filter(([key]) => key !== 'updatedAt' && key !== 'confirmedAt')
			.map(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key)),
	)
}

function changes(before: unknown, after: unknown) {
	const [a, b] = [leaves(before), leaves(after)]
	return [...new Set([...Object.keys(a), ...Object.keys(b)])]
		.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
		.map((k) => [k, b[k]])
}

/**
 * Opens each save form of the screen (dialogs and inline edits are URL state), edits its last text field (none in the
 * reminder settings), sends it, and checks the profile changed in that field alone.
 */
async function saveEveryForm(cookie: string, id: string) {
	const { data } = await render(cookie, `profile=${id}`)
	const profile = data.profile!
	const states = [
		`profile=${id}`,
		`profile=${id}&dialog=dnr`,
		`profile=${id}&edit=notes`,
		...profile.medications.map((m) => `profile=${id}&edit=medications:${m.id}`),
		...profile.medicalConditions.map((c) => `profile=${id}&edit=conditions:${c.id}`),
		...profile.insurancePolicies.map((p) => `profile=${id}&dialog=edit-policy:${p.id}`),
	]
	const saved = new Set<string>()
	for (const state of states) {
		for (const form of formsOf((await render(cookie, state)).html)) {
			const key = `${form.intent}:${form.id ?? ''}`
			if (!SAVES.includes(form.intent) || saved.has(key)) continue
			saved.add(key)
			const before = await view(id, cookie)
			const edited = form.controls.filter((c) => c.editable).at(-1)
			const edit = edited && (edited.value ? `${edited.value as string} (edited)` : 'Edited')
			const body = new FormData()
			for (const control of form.controls) body.append(control.name, control === edited ? edit! : control.value)
			body.append('intent', form.intent)
			const request = new Request('http://localhost:3000/dashboard', { method: 'POST', headers: { cookie }, body })
			const response = await unwrap((await call(home.action, request)).result)
			expect({ form: key, status: response.status, body: response.status === 302 ? null : response.body }).toEqual({
				form: key,
				status: 302,
				body: null,
			})
			const after = await view(id, cookie)
			// A DNR form's place of the original goes with a status that needs no document (spec 001 §4).
			const kept = form.intent !== 'save-dnr' || before.dnrStatus === 'DNR' || before.dnrStatus === 'POLST'
			const expected = edited && kept ? [[expect.stringMatching(new RegExp(`(^|\\.)${edited.name}$`)), edit]] : []
			expect({ form: key, changed: changes(before, after) }).toEqual({ form: key, changed: expected })
		}
	}
	expect([...saved].map((key) => key.split(':')[0])).toEqual(expect.arrayContaining(SAVES))
	return saved
}

describe('save every form', () => {
	test.each(Array.from({ length: ROUNDS }, (_, round) => round))('round %i of the documented values', async (round) => {
		const { cookie, id } = await filledProfile(round)
		const before = await view(id, cookie)
		// Each value is read into its vocabulary: the form shows it selected.
		const { html } = await render(cookie, `profile=${id}`)
		const gender = [...LIST_GENDERS, ...DETAIL_GENDERS][round % 8]!
		expect(before.gender?.toString().toLowerCase()).toBe(gender.toLowerCase())
		expect(html).toMatch(new RegExp(`<select[^>]*name="gender"[^>]*>(?:(?!</select>).)*<option value="${before.gender}" selected=""`, 's'))
		await saveEveryForm(cookie, id)
	})

	test('a stored value the form does not offer, or spelled another way, is kept', async () => {
		const { cookie, id } = await filledProfile(0)
		const profileId = Number(id)
		// Values an older version (or another client) stored: outside the vocabulary, or spelled as spec 001's list does.
		await db
			.update(s.medicalProfiles)
			.set({ gender: 'Agender', bloodType: 'o+', reviewIntervalMonths: 2 })
			.where(eq(s.medicalProfiles.id, profileId))
		await db
			.update(s.insurancePolicies)
			.set({ relationship: 'grandchild', planType: 'HDHP' })
			.where(eq(s.insurancePolicies.medicalProfileId, profileId))
		const shown = await view(id, cookie)
		expect(shown).toMatchObject({ gender: 'Agender', bloodType: 'O+', reviewIntervalMonths: 2 })
		expect(shown.insurancePolicies).toEqual([expect.objectContaining({ relationship: 'grandchild', planType: 'HDHP' })])
		const { html } = await render(cookie, `profile=${id}`)
		expect(html).toMatch(/<option value="Agender" selected="">Agender<\/option>/)
		expect(html).toMatch(/<option value="O\+" selected="">O\+<\/option>/)
		await saveEveryForm(cookie, id)
		const stored = await db.query.medicalProfiles.findFirst({ where: eq(s.medicalProfiles.id, profileId) })
		expect(stored).toMatchObject({ gender: 'Agender', bloodType: 'O+', reviewIntervalMonths: 2 })

		// Sent for a field that does not hold it, such a value is refused, beside the field.
		const refused = await json(profileApi.action, 'PUT', `/api/medical-profile/${id}`, { bloodType: 'A2B' }, cookie, { id })
		expect(refused).toMatchObject({ status: 400, body: { errors: { bloodType: ['Please choose one of the options'] } } })
	})
})

describe('optional checkboxes', () => {
	test('are never required', async () => {
		const { cookie, id } = await filledProfile(0)
		const boxes = [...(await render(cookie, `profile=${id}&dialog=add-contact`)).html.matchAll(/<input\b[^>]*type="checkbox"[^>]*>/g)].map(
			([tag]) => attributes(tag),
		)
		expect(boxes.map((box) => box.name).sort()).toEqual(['alertOptIn', 'helpingAlerts'])
		for (const box of boxes) expect(box).not.toHaveProperty('required')
	})
})
