import { describe, expect, test } from 'vitest'
import type { IpsBundle } from '#app/domain/sharing/ips.ts'
import * as ipsApi from '#app/routes/api/ips.ts'
import { get } from '#tests/api.ts'
import { call, createUser, getRequest, sessionCookie } from '#tests/factories.ts'
import { ipsProblems, sectionResources } from '#tests/fhir.ts'
import { claimedProfile, fullProfile } from '#tests/profiles.ts'

const path = (id: number | string) => `/api/medical-profiles/${id}/ips`

describe('GET /api/medical-profiles/:id/ips', () => {
	test('the owner gets the profile’s International Patient Summary as FHIR JSON, never kept by a cache', async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		const { result } = await call(ipsApi.loader, getRequest(path(profile.id), cookie), { id: String(profile.id) })
		if (!(result instanceof Response)) throw new Error('not a Response')
		expect(result.status).toBe(200)
		expect(result.headers.get('content-type')).toBe('application/fhir+json')
		expect(result.headers.get('cache-control')).toBe('private, no-store')
		expect(result.headers.get('content-disposition')).toBe(`attachment; filename="hmh-patient-summary-${profile.id}.json"`)
		const bundle = (await result.json()) as IpsBundle
		expect(ipsProblems(bundle)).toEqual([])
		expect(sectionResources(bundle, '48765-2')).toMatchObject([
			{ code: { text: 'Penicillin' }, criticality: 'high', reaction: [{ manifestation: [{ text: 'Anaphylaxis' }] }] },
		])
		expect(sectionResources(bundle, '10160-0')).toMatchObject([
			{ medicationCodeableConcept: { text: 'Warfarin' }, dosage: [{ text: '5 mg, daily' }] },
		])
		expect(sectionResources(bundle, '11450-4')).toMatchObject([
			{ code: { text: 'Atrial fibrillation' }, clinicalStatus: { coding: [{ code: 'active' }] } },
		])
		expect(sectionResources(bundle, '42348-3')).toMatchObject([{ resourceType: 'Consent', category: [{ coding: [{ code: 'dnr' }] }, {}] }])
		const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')!.resource
		expect(patient).toMatchObject({
			name: [{ text: 'Maria Santos' }],
			birthDate: '1950-06-15',
			contact: [{ name: { text: 'Luis Santos' } }],
		})
	})

	test('a profile with nothing recorded: the four sections, each with its empty reason', async () => {
		const { cookie, profileId } = await claimedProfile('Just A Name')
		const answer = await get(ipsApi.loader, path(profileId), cookie, { id: String(profileId) })
		expect(answer.status).toBe(200)
		const bundle = answer.body as unknown as IpsBundle
		expect(ipsProblems(bundle)).toEqual([])
		for (const code of ['48765-2', '10160-0', '11450-4', '42348-3']) expect(sectionResources(bundle, code), code).toEqual([])
	})

	test('a visitor: 401 JSON; another person, an unknown or a malformed id: 404, the same answer', async () => {
		const { profile } = await fullProfile()
		expect(await get(ipsApi.loader, path(profile.id), undefined, { id: String(profile.id) })).toMatchObject({
			status: 401,
			body: { message: 'Unauthorized' },
		})
		const stranger = await sessionCookie((await createUser()).id)
		for (const id of [String(profile.id), '2000000000', 'abc'])
			expect(await get(ipsApi.loader, path(id), stranger, { id }), id).toMatchObject({
				status: 404,
				body: { message: 'Profile not found' },
			})
	})
})
