import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { createHealthLink } from '#app/domain/sharing/health-links.server.ts'
import { LINK_MESSAGES } from '#app/domain/sharing/ips-import.server.ts'
import { IMPORT_MESSAGES } from '#app/domain/sharing/import-proposal.ts'
import { SUMMARY_MESSAGES } from '#app/domain/sharing/ips-read.ts'
import { encodeShlink } from '#app/domain/sharing/shlink.ts'
import { env } from '#app/utils/env.server.ts'
import * as ipsApi from '#app/routes/api/ips.ts'
import * as confirmApi from '#app/routes/api/profile-import-confirm.ts'
import * as importApi from '#app/routes/api/profile-import.ts'
import * as allergiesApi from '#app/routes/api/allergies.ts'
import { get, json, send } from '#tests/api.ts'
import { createUser, jsonRequest, sessionCookie } from '#tests/factories.ts'
import { claimedProfile, fullProfile } from '#tests/profiles.ts'

const path = (id: number | string, confirm = false) => `/api/medical-profiles/${id}/import${confirm ? '/confirm' : ''}`
const propose = (id: number | string, body: unknown, cookie?: string) =>
	json(importApi.action, 'POST', path(id), body, cookie, { id: String(id) })
const confirm = (id: number | string, body: unknown, cookie?: string) =>
	json(confirmApi.action, 'POST', path(id, true), body, cookie, { id: String(id) })

/** Maria Santos's summary (a full profile: Penicillin, Warfarin, Atrial fibrillation, DNR), as the app exports it. */
async function exported() {
	const { user, profile } = await fullProfile()
	const answer = await get(ipsApi.loader, `/api/medical-profiles/${profile.id}/ips`, await sessionCookie(user.id), {
		id: String(profile.id),
	})
	expect(answer.status).toBe(200)
	return { user, profile, bundle: answer.body as Record<string, unknown> }
}

const linkRow = (id: number) => db.query.smartHealthLinks.findFirst({ where: (l, { eq }) => eq(l.id, id) })

type Proposal = {
	allergies: Array<{ id: string; allergen: string; selected: boolean }>
	medications: Array<{ id: string; name: string }>
	conditions: Array<{ id: string; condition: string }>
	dnrStatus: { id: string; proposed: string; problem: string | null } | null
}

describe('POST /api/medical-profiles/:id/import and /import/confirm', () => {
	test('a Bundle: the proposal beside what the profile holds, then the chosen items added', async () => {
		const { bundle } = await exported()
		const { cookie, profileId } = await claimedProfile('Empty Person')
		const proposed = await propose(profileId, { bundle }, cookie)
		expect(proposed.status).toBe(200)
		expect(proposed.headers.get('cache-control')).toBe('private, no-store')
		const proposal = proposed.body as unknown as Proposal
		expect(proposal).toMatchObject({
			allergies: [{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis', duplicate: false, problem: null, selected: true }],
			medications: [{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily', startDate: null, duplicate: false, selected: true }],
			conditions: [{ condition: 'Atrial fibrillation', status: 'Chronic', duplicate: false, selected: true }],
			dnrStatus: { id: 'dnr-DNR', proposed: 'DNR', current: null, duplicate: false, selected: false },
			current: { allergies: [], medications: [], conditions: [], dnrStatus: null },
		})
		expect(proposal.dnrStatus!.problem).toBe(IMPORT_MESSAGES.needsDocument('Do Not Resuscitate'))

		const accept = [proposal.allergies[0]!.id, proposal.conditions[0]!.id]
		const done = await confirm(profileId, { bundle, accept }, cookie)
		expect(done.status).toBe(200)
		expect(done.body).toMatchObject({
			added: {
				allergies: [{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis', medicalProfileId: profileId }],
				medications: [],
				conditions: [{ condition: 'Atrial fibrillation', status: 'Chronic' }],
				dnrStatus: null,
			},
		})
		const listed = await get(allergiesApi.loader, `/api/allergies?profileId=${profileId}`, cookie)
		expect(listed.body).toMatchObject([{ allergen: 'Penicillin' }])

		// Read again, what was added is now in the profile, unticked.
		const again = (await propose(profileId, { bundle }, cookie)).body as unknown as Proposal
		expect(again.allergies).toMatchObject([{ id: accept[0], duplicate: true, selected: false }])
		// The DNR status cannot be set without its document: refused with the reason, nothing else added with it.
		const refused = await confirm(profileId, { bundle, accept: [proposal.medications[0]!.id, 'dnr-DNR'] }, cookie)
		expect(refused).toMatchObject({
			status: 400,
			body: { message: `The DNR status cannot be added: ${IMPORT_MESSAGES.needsDocument('Do Not Resuscitate')}` },
		})
		expect(refused.body.errors).toEqual({ accept: [refused.body.message] })
		const medications = (await propose(profileId, { bundle }, cookie)).body as unknown as Proposal
		expect(medications.medications).toMatchObject([{ duplicate: false }])
	})

	test('a SMART Health Link made by this app, with its passcode: its attempts are spent by wrong ones', async () => {
		const { user, profile, bundle } = await exported()
		const link = await createHealthLink(user.id, profile.id, { expires: '1d', passcode: '2468' })
		const key = await linkRow(link.id)
		const shlink = encodeShlink({ url: `${env.PUBLIC_URL}/shl/${link.manifestId}`, key: key!.key, flag: 'P', v: 1 })
		const { cookie, profileId } = await claimedProfile('Link Reader')

		expect(await propose(profileId, { shlink }, cookie)).toMatchObject({
			status: 400,
			body: { message: LINK_MESSAGES.needsPasscode, errors: { passcode: [LINK_MESSAGES.needsPasscode] } },
		})
		expect(await propose(profileId, { shlink, passcode: 'wrong' }, cookie)).toMatchObject({
			status: 400,
			body: { message: LINK_MESSAGES.wrongPasscode(9) },
		})
		const viaLink = await propose(profileId, { shlink, passcode: '2468' }, cookie)
		expect(viaLink.status).toBe(200)
		const viaBundle = await propose(profileId, { bundle }, cookie)
		// The same summary either way: the same items, with the same ids.
		expect(viaLink.body).toEqual(viaBundle.body)
		const ids = [...(viaLink.body as unknown as Proposal).allergies, ...(viaLink.body as unknown as Proposal).medications].map((i) => i.id)
		const done = await confirm(profileId, { shlink, passcode: '2468', accept: ids }, cookie)
		expect(done).toMatchObject({
			status: 200,
			body: { added: { allergies: [{ allergen: 'Penicillin' }], medications: [{ name: 'Warfarin' }] } },
		})

		// A link of another issuer is refused before anything is fetched; so is anything that is not a link.
		const foreign = encodeShlink({ url: `https://shl.example.org/shl/${link.manifestId}`, key: key!.key, v: 1 })
		expect(await propose(profileId, { shlink: foreign }, cookie)).toMatchObject({
			status: 400,
			body: { message: LINK_MESSAGES.otherIssuer(new URL(env.PUBLIC_URL).origin), errors: { shlink: [expect.any(String)] } },
		})
		for (const bad of ['hello', 'shlink:/%%%', encodeShlink({ url: 'x', key: 'short', v: 1 })])
			expect(await propose(profileId, { shlink: bad }, cookie), bad).toMatchObject({
				status: 400,
				body: { message: LINK_MESSAGES.notALink },
			})
		// The right manifest with a wrong key: the file does not open.
		const wrongKey = encodeShlink({ url: `${env.PUBLIC_URL}/shl/${link.manifestId}`, key: 'A'.repeat(43), v: 1 })
		expect(await propose(profileId, { shlink: wrongKey, passcode: '2468' }, cookie)).toMatchObject({
			status: 400,
			body: { message: LINK_MESSAGES.undecryptable },
		})
		const gone = encodeShlink({ url: `${env.PUBLIC_URL}/shl/${'z'.repeat(43)}`, key: key!.key, v: 1 })
		expect(await propose(profileId, { shlink: gone }, cookie)).toMatchObject({ status: 400, body: { message: LINK_MESSAGES.gone } })
	})

	test('broken and hostile bodies: 400, 413 or 415 with a message, never a 500', async () => {
		const { bundle } = await exported()
		const { cookie, profileId } = await claimedProfile('Hostile Input')
		const raw = (body: string, type = 'application/json') => {
			const request = jsonRequest(path(profileId), body, { cookie })
			request.headers.set('content-type', type)
			return send(importApi.action, request, { id: String(profileId) })
		}
		const cases: Array<[string, Promise<Awaited<ReturnType<typeof raw>>>, number, string | RegExp]> = [
			['not JSON', raw('{"bundle": '), 400, SUMMARY_MESSAGES.notJson],
			['not an object', raw('[1,2]'), 400, 'The request body must be a JSON object'],
			['text/plain', raw('{}', 'text/plain'), 415, /must be JSON/],
			[
				'too large',
				raw(JSON.stringify({ bundle: { resourceType: 'Bundle', pad: 'x'.repeat(1100 * 1024) } })),
				413,
				SUMMARY_MESSAGES.tooLarge,
			],
			['too deep', raw(`{"bundle":${'['.repeat(5000)}${']'.repeat(5000)}}`), 400, SUMMARY_MESSAGES.tooDeep],
			[
				'__proto__',
				raw('{"bundle":{"resourceType":"Bundle","__proto__":{"isAdmin":true}}}'),
				400,
				SUMMARY_MESSAGES.forbiddenKey('__proto__'),
			],
			['nothing', propose(profileId, {}, cookie), 400, 'bundle (a FHIR Bundle) or shlink (a SMART Health Link) is required'],
			['both', propose(profileId, { bundle, shlink: 'shlink:/x' }, cookie), 400, 'Send either bundle or shlink, not both'],
			['bundle a string', propose(profileId, { bundle: JSON.stringify(bundle) }, cookie), 400, SUMMARY_MESSAGES.notBundle],
			['bundle an array', propose(profileId, { bundle: [bundle] }, cookie), 400, SUMMARY_MESSAGES.notBundle],
			[
				'no IPS content',
				propose(profileId, { bundle: { resourceType: 'Bundle', type: 'collection', entry: [] } }, cookie),
				400,
				SUMMARY_MESSAGES.noContent,
			],
			[
				'wrong types',
				propose(profileId, { bundle: { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Condition', code: [] } }] } }, cookie),
				400,
				/entry\[0\]\.resource\.code: expected an object/,
			],
			[
				'huge entries',
				propose(profileId, { bundle: { resourceType: 'Bundle', entry: Array.from({ length: 5000 }, () => ({})) } }, cookie),
				400,
				/a list longer than 1000 items/,
			],
			['shlink a number', propose(profileId, { shlink: 5 }, cookie), 400, 'shlink must be text'],
			['accept not a list', confirm(profileId, { bundle, accept: 'all' }, cookie), 400, 'accept must be a list of item ids'],
			['accept empty', confirm(profileId, { bundle, accept: [] }, cookie), 400, IMPORT_MESSAGES.noneChosen],
			['accept unknown', confirm(profileId, { bundle, accept: ['allergy-0'] }, cookie), 409, IMPORT_MESSAGES.changed],
		]
		for (const [what, answer, status, message] of cases) {
			const { status: got, body } = await answer
			expect(got, what).toBe(status)
			if (typeof message === 'string') expect(body.message, what).toBe(message)
			else expect(body.message, what).toMatch(message)
		}
		expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
		const listed = await get(allergiesApi.loader, `/api/allergies?profileId=${profileId}`, cookie)
		expect(listed.body).toEqual([])
	})

	test('a visitor: 401; another person, an unknown or a malformed id: 404, before any link is opened', async () => {
		const { bundle, user, profile } = await exported()
		for (const call of [propose, confirm])
			expect(await call(profile.id, { bundle, accept: ['x'] }), call.name).toMatchObject({ status: 401, body: { message: 'Unauthorized' } })
		const stranger = await sessionCookie((await createUser()).id)
		for (const id of [String(profile.id), '2000000000', 'abc'])
			for (const call of [propose, confirm])
				expect(await call(id, { bundle, accept: ['x'] }, stranger), `${call.name} ${id}`).toMatchObject({
					status: 404,
					body: { message: 'Profile not found' },
				})
		// A wrong passcode sent for someone else's profile spends nothing.
		const link = await createHealthLink(user.id, profile.id, { expires: '1d', passcode: '2468' })
		const row = await linkRow(link.id)
		const shlink = encodeShlink({ url: `${env.PUBLIC_URL}/shl/${link.manifestId}`, key: row!.key, flag: 'P', v: 1 })
		expect((await propose(profile.id, { shlink, passcode: 'nope' }, stranger)).status).toBe(404)
		expect(row!.attemptsLeft).toBe(10)
		const after = await linkRow(link.id)
		expect(after!.attemptsLeft).toBe(10)
		// GET is not a method of either.
		expect((await get(importApi.loader, path(profile.id), await sessionCookie(user.id), { id: String(profile.id) })).status).toBe(405)
	})
})
