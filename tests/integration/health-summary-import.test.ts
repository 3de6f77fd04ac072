import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db, rowsOf } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { getProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import { createHealthLink, listHealthLinks } from '#app/domain/sharing/health-links.server.ts'
import { IMPORT_RECIPIENT } from '#app/domain/sharing/ips-import.server.ts'
import * as ipsApi from '#app/routes/api/ips.ts'
import * as confirmApi from '#app/routes/api/profile-import-confirm.ts'
import * as importApi from '#app/routes/api/profile-import.ts'
import { get, json } from '#tests/api.ts'
import { claimedProfile } from '#tests/profiles.ts'

// Export and import, against PostgreSQL: a profile's own International Patient Summary, and a SMART Health Link the app
// made of it, filled into an empty profile through the JSON API, reproduce its allergies, medications, conditions and
// DNR status; the writes are the profile's own (sealed at rest, on the access record).

type Proposal = Record<'allergies' | 'medications' | 'conditions', Array<{ id: string; selected: boolean }>> & {
	dnrStatus: { id: string; selected: boolean } | null
}

/** A profile with something of every kind and every spelling the export must carry back: the source. */
async function sourceProfile() {
	const source = await claimedProfile('Round Trip')
	const pid = source.profileId
	const tag = Math.random().toString(36).slice(2, 8)
	await db.update(s.medicalProfiles).set({ dnrStatus: 'None' }).where(eq(s.medicalProfiles.id, pid))
	await db.insert(s.allergies).values([
		{ medicalProfileId: pid, allergen: `Penicillin${tag}`, severity: 'Severe', reaction: 'Anaphylaxis' },
		{ medicalProfileId: pid, allergen: 'Latex', severity: 'Moderate', reaction: null },
		{ medicalProfileId: pid, allergen: 'Dust mites', severity: 'Mild', reaction: 'Sneezing, watery eyes' },
	])
	await db.insert(s.medications).values([
		{ medicalProfileId: pid, name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: '2020-03-01' },
		{ medicalProfileId: pid, name: 'Insulin glargine', dosage: null, frequency: 'at bedtime', startDate: null },
		{ medicalProfileId: pid, name: 'Aspirin', dosage: '81 mg, chewable', frequency: null, startDate: null },
	])
	await db.insert(s.medicalConditions).values([
		{ medicalProfileId: pid, condition: 'Atrial fibrillation', status: 'Chronic', diagnosedDate: '2019-05-02', notes: 'On anticoagulants' },
		{ medicalProfileId: pid, condition: 'Type 1 diabetes', status: 'Under Treatment', diagnosedDate: null, notes: null },
		{ medicalProfileId: pid, condition: 'Hypertension', status: 'Managed', diagnosedDate: null, notes: null },
		{ medicalProfileId: pid, condition: 'Seizure disorder', status: 'Active', diagnosedDate: null, notes: 'Line one\nLine two' },
		{ medicalProfileId: pid, condition: 'Broken wrist', status: 'Resolved', diagnosedDate: '2010-01-01', notes: null },
	])
	return { ...source, tag }
}

/** What the profile holds of the kinds a summary carries, as a person reads it. */
async function held(userId: string, profileId: number) {
	const p = (await getProfileDetail(userId, profileId))!
	return {
		dnrStatus: p.dnrStatus,
		allergies: p.allergies.map(({ allergen, severity, reaction }) => ({ allergen, severity, reaction })),
		medications: p.medications.map(({ name, dosage, frequency, startDate }) => ({ name, dosage, frequency, startDate })),
		conditions: p.medicalConditions.map(({ condition, status, diagnosedDate, notes }) => ({ condition, status, diagnosedDate, notes })),
	}
}

/** Proposes, then confirms every item proposed as ticked; answers the confirmation. */
async function importAll(cookie: string, profileId: number, body: Record<string, unknown>) {
	const params = { id: String(profileId) }
	const proposed = await json(importApi.action, 'POST', `/api/medical-profiles/${profileId}/import`, body, cookie, params)
	expect(proposed.status, proposed.body.message).toBe(200)
	const proposal = proposed.body as unknown as Proposal
	const items = [
		...proposal.allergies,
		...proposal.medications,
		...proposal.conditions,
		...(proposal.dnrStatus ? [proposal.dnrStatus] : []),
	]
	expect(items.every((i) => i.selected)).toBe(true)
	const accept = items.map((i) => i.id)
	return json(confirmApi.action, 'POST', `/api/medical-profiles/${profileId}/import/confirm`, { ...body, accept }, cookie, params)
}

describe('a health summary into an empty profile, against PostgreSQL', () => {
	test("the profile's own IPS, exported and imported, reproduces what it holds", async () => {
		const source = await sourceProfile()
		const exported = await get(ipsApi.loader, `/api/medical-profiles/${source.profileId}/ips`, source.cookie, {
			id: String(source.profileId),
		})
		expect(exported.status).toBe(200)
		const target = await claimedProfile('Empty Target')
		const done = await importAll(target.cookie, target.profileId, { bundle: exported.body })
		expect(done.status, done.body.message).toBe(200)
		expect(done.body).toMatchObject({ added: { dnrStatus: 'None' } })

		const before = await held(source.user.id, source.profileId)
		expect(await held(target.user.id, target.profileId)).toEqual(before)
		expect(before.allergies).toHaveLength(3)
		expect(before.conditions).toHaveLength(5)

		// The rows are the profile's own: sealed at rest, and each addition on the access record.
		const [raw] = rowsOf<{ allergen: string }>(
			await db.execute(sql`select allergen from allergies where medical_profile_id = ${target.profileId} order by id limit 1`),
		)
		expect(raw!.allergen).not.toContain(source.tag)
		const changes = await db
			.select({ action: s.profileAudit.action })
			.from(s.profileAudit)
			.where(and(eq(s.profileAudit.profileId, target.profileId), eq(s.profileAudit.kind, 'change')))
		const actions = changes.map((c) => c.action)
		expect(actions.filter((a) => a === 'allergies-added')).toHaveLength(3)
		expect(actions.filter((a) => a === 'medications-added')).toHaveLength(3)
		expect(actions.filter((a) => a === 'conditions-added')).toHaveLength(5)

		// Imported twice, nothing is new: every item is already in the profile, and none is ticked.
		const again = await json(
			importApi.action,
			'POST',
			`/api/medical-profiles/${target.profileId}/import`,
			{ bundle: exported.body },
			target.cookie,
			{
				id: String(target.profileId),
			},
		)
		const proposal = again.body as unknown as Proposal
		expect([...proposal.allergies, ...proposal.medications, ...proposal.conditions, proposal.dnrStatus!].map((i) => i.selected)).toEqual(
			Array(12).fill(false),
		)
	})

	test('a SMART Health Link the app made, with its passcode, imports the same way and is on the access record', async () => {
		const source = await sourceProfile()
		const link = await createHealthLink(source.user.id, source.profileId, { expires: '1d', passcode: 'open-sesame' })
		const shlink = (await listHealthLinks(source.user.id)).find((l) => l.id === link.id)!.shlink!
		const target = await claimedProfile('Link Target')
		const done = await importAll(target.cookie, target.profileId, { shlink, passcode: 'open-sesame' })
		expect(done.status, done.body.message).toBe(200)
		expect(await held(target.user.id, target.profileId)).toEqual(await held(source.user.id, source.profileId))

		// Both reads (the proposal and the confirmation) were the link's, named as this app filling a profile.
		const reads = await db
			.select({ action: s.profileAudit.action, role: s.profileAudit.actorRole, detail: s.profileAudit.detail })
			.from(s.profileAudit)
			.where(and(eq(s.profileAudit.profileId, source.profileId), eq(s.profileAudit.action, 'shl-manifest')))
		expect(reads).toEqual([
			{ action: 'shl-manifest', role: 'link_recipient', detail: IMPORT_RECIPIENT },
			{ action: 'shl-manifest', role: 'link_recipient', detail: IMPORT_RECIPIENT },
		])
		const [row] = await db
			.select({ accessCount: s.smartHealthLinks.accessCount })
			.from(s.smartHealthLinks)
			.where(eq(s.smartHealthLinks.id, link.id))
		expect(row!.accessCount).toBe(2)
	})

	test("a link's passcode attempts are the link's own: ten wrong ones through the import lock it for everyone", async () => {
		const source = await sourceProfile()
		const link = await createHealthLink(source.user.id, source.profileId, { expires: '1d', passcode: 'right-one' })
		const shlink = (await listHealthLinks(source.user.id)).find((l) => l.id === link.id)!.shlink!
		const target = await claimedProfile('Guesser')
		const params = { id: String(target.profileId) }
		const path = `/api/medical-profiles/${target.profileId}/import`
		const answers = []
		for (let i = 0; i < 10; i++)
			answers.push((await json(importApi.action, 'POST', path, { shlink, passcode: `wrong-${i}` }, target.cookie, params)).body.message)
		expect(answers[0]).toBe('This passcode is wrong: after 9 more wrong tries the link stops working.')
		expect(answers[8]).toBe('This passcode is wrong: after 1 more wrong try the link stops working.')
		expect(answers[9]).toBe('This passcode is wrong, and the link has had all its tries: it no longer opens. Ask for a new link.')
		const locked = await json(importApi.action, 'POST', path, { shlink, passcode: 'right-one' }, target.cookie, params)
		expect(locked).toMatchObject({ status: 400, body: { message: 'This SMART Health Link does not exist, was revoked or has expired.' } })
		expect((await listHealthLinks(source.user.id)).find((l) => l.id === link.id)!.state).toBe('locked')
	})
})
