import { describe, expect, test } from 'vitest'
import { buildIps } from '#app/domain/sharing/ips.ts'
import { IMPORT_MESSAGES } from '#app/domain/sharing/import-proposal.ts'
import { SUMMARY_MESSAGES } from '#app/domain/sharing/ips-read.ts'
import type { ImportView } from '#app/domain/sharing/import-proposal.ts'
import { getProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import { getToast, requestToastContext } from '#app/utils/toast.server.ts'
import * as page from '#app/routes/medical/import.tsx'
import { call, createUser, getRequest, multipartRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { claimedProfile, fullProfile } from '#tests/profiles.ts'
import { addedText } from './import.server.ts'

const path = (profileId: number | string) => `/medical-info/import?profile=${profileId}`

async function post(cookie: string, profileId: number | string, fields: Record<string, string>, files: Record<string, File> = {}) {
	const { result, context } = await call(page.action, multipartRequest(path(profileId), fields, files, cookie))
	const answer = await unwrap(result)
	return { ...answer, toast: context.get(requestToastContext) }
}

type Answer = { review?: { proposal: ImportView; carried: string } | null; result: { error?: Record<string, string[]> } }
const bodyOf = (answer: { body: unknown }) => answer.body as Answer

/** The summary of Maria Santos's full profile, as the file a person downloads. */
async function summaryFile() {
	const { user, profile } = await fullProfile()
	const detail = await getProfileDetail(user.id, profile.id)
	return new File([JSON.stringify(buildIps({ ...detail!, dnrStatus: 'None' }))], 'summary.json', { type: 'application/json' })
}

describe('Fill from a health summary (the page)', () => {
	test('upload, review, confirm: the ticked items are added and the screen says what was', async () => {
		const file = await summaryFile()
		const { user, cookie, profileId } = await claimedProfile('Empty Profile')
		const loaded = await unwrap((await call(page.loader, getRequest(path(profileId), cookie))).result)
		expect(loaded.body).toEqual({ profile: { id: profileId, name: 'Empty Profile (Child)' } })

		const read = await post(cookie, profileId, { intent: 'import-read' }, { bundle: file })
		expect(read.status).toBe(200)
		const { review } = bodyOf(read)
		expect(review!.proposal).toMatchObject({
			allergies: [{ allergen: 'Penicillin', selected: true }],
			medications: [{ name: 'Warfarin', selected: true }],
			conditions: [{ condition: 'Atrial fibrillation', selected: true }],
			dnrStatus: { proposed: 'None', selected: true },
		})
		// Only what was read goes back with the review: not the patient, not the narratives.
		expect(review!.carried).not.toContain('Maria')

		const accept = [review!.proposal.allergies[0]!.id, review!.proposal.medications[0]!.id, 'dnr-None']
		const form = new FormData()
		form.set('intent', 'import-confirm')
		form.set('bundle', review!.carried)
		for (const id of accept) form.append('accept', id)
		const request = new Request(new URL(path(profileId), 'http://localhost:3000'), { method: 'POST', headers: { cookie }, body: form })
		const done = await unwrap((await call(page.action, request)).result)
		expect(done.status).toBe(302)
		expect(done.headers.get('location')).toBe(`/medical-info?profile=${profileId}`)
		const cookieSent = (done.headers.get('set-cookie') ?? '').split(';')[0]!
		const { toast } = await getToast(new Request('http://localhost:3000/medical-info', { headers: { cookie: cookieSent } }))
		expect(toast).toMatchObject({
			type: 'success',
			title: 'Added from the health summary',
			description: 'Added 1 allergy, 1 medication and the DNR status (No DNR).',
		})
		const after = await getProfileDetail(user.id, profileId)
		expect(after).toMatchObject({
			dnrStatus: 'None',
			allergies: [{ allergen: 'Penicillin' }],
			medications: [{ name: 'Warfarin' }],
			medicalConditions: [],
		})
	})

	test('refusals come back beside the field (reading) or above the review (confirming), never a 500', async () => {
		const file = await summaryFile()
		const { cookie, profileId } = await claimedProfile('Refusals')
		const errorsOf = async (fields: Record<string, string>, files: Record<string, File> = {}) => {
			const answer = await post(cookie, profileId, fields, files)
			return { status: answer.status, errors: bodyOf(answer).result.error, review: bodyOf(answer).review }
		}
		expect(await errorsOf({ intent: 'import-read' })).toMatchObject({
			status: 400,
			errors: { bundle: ['Choose a health summary file, or paste a SMART Health Link.'] },
		})
		expect(await errorsOf({ intent: 'import-read', shlink: 'shlink:/x' }, { bundle: file })).toMatchObject({
			errors: { bundle: ['Choose a file or paste a link, not both.'] },
		})
		const notJson = new File(['%PDF-1.4'], 'x.json')
		expect(await errorsOf({ intent: 'import-read' }, { bundle: notJson })).toMatchObject({
			status: 400,
			errors: { bundle: [SUMMARY_MESSAGES.notJson] },
		})
		const big = new File(['x'.repeat(1024 * 1024 + 1)], 'big.json')
		expect(await errorsOf({ intent: 'import-read' }, { bundle: big })).toMatchObject({
			status: 413,
			errors: { bundle: [SUMMARY_MESSAGES.tooLarge] },
		})
		const huge = new File(['x'.repeat(2 * 1024 * 1024)], 'huge.json')
		expect(await errorsOf({ intent: 'import-read' }, { bundle: huge })).toMatchObject({
			status: 413,
			errors: { bundle: [SUMMARY_MESSAGES.tooLarge] },
		})
		expect(await errorsOf({ intent: 'import-read', shlink: 'not a link' })).toMatchObject({
			errors: { shlink: ['This is not a SMART Health Link: paste the whole link, starting with shlink:/'] },
		})
		expect(await errorsOf({ intent: 'nope' })).toMatchObject({ status: 400, errors: { intent: [expect.any(String)] } })

		const { review } = bodyOf(await post(cookie, profileId, { intent: 'import-read' }, { bundle: file }))
		const none = await errorsOf({ intent: 'import-confirm', bundle: review!.carried })
		expect(none).toMatchObject({ status: 400, errors: { accept: [IMPORT_MESSAGES.noneChosen] } })
		// The review comes back with the refusal, read again from what it carried.
		expect(none.review!.proposal.allergies).toMatchObject([{ allergen: 'Penicillin' }])
		const changed = await errorsOf({ intent: 'import-confirm', bundle: review!.carried, accept: 'allergy-zzz' })
		expect(changed).toMatchObject({ status: 409, errors: { accept: [IMPORT_MESSAGES.changed] } })
		const broken = await errorsOf({ intent: 'import-confirm', bundle: '{"resourceType":"Bundle","__proto__":{}}', accept: 'x' })
		expect(broken).toMatchObject({ status: 400, errors: { bundle: [SUMMARY_MESSAGES.forbiddenKey('__proto__')] }, review: null })
	})

	test("another person's profile is not found, on the page and by its forms", async () => {
		const { profileId } = await claimedProfile('Somebody')
		const stranger = await sessionCookie((await createUser()).id)
		for (const id of [profileId, 'abc', 2000000000]) {
			expect((await unwrap((await call(page.loader, getRequest(path(id), stranger))).result)).status, String(id)).toBe(404)
			expect((await post(stranger, id, { intent: 'import-read' })).status, String(id)).toBe(404)
		}
	})

	test('what the toast says', () => {
		const none = { allergies: [], medications: [], conditions: [], dnrStatus: null }
		const rows = (n: number) => Array.from({ length: n }, () => ({}) as never)
		expect(addedText({ ...none, allergies: rows(2) })).toBe('Added 2 allergies.')
		expect(addedText({ ...none, medications: rows(1), conditions: rows(3), dnrStatus: 'DNR' })).toBe(
			'Added 1 medication, 3 conditions and the DNR status (Do Not Resuscitate).',
		)
		expect(addedText(none)).toBe('Nothing changed: the profile already had what you chose.')
	})
})
