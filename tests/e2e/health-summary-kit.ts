import type { Page } from '@playwright/test'
import { expect } from './fixtures.ts'

// For the journeys that fill a profile from a health summary: a summary to upload, made through the JSON API.

/** A profile of the person's own with an allergy, a medication and a condition, and its summary as a file's bytes. */
export async function exportedSummary(page: Page) {
	const must = async (what: string, answer: Promise<{ ok(): boolean; text(): Promise<string>; json(): Promise<unknown> }>) => {
		const response = await answer
		expect(response.ok(), `${what}: ${await response.text()}`).toBe(true)
		return response
	}
	const own = (await (
		await must('profile', page.request.post('/api/medical-profile', { data: { firstName: 'Rosa', lastName: 'Source' } }))
	).json()) as {
		id: number
	}
	const medicalProfileId = own.id
	await must(
		'allergy',
		page.request.post('/api/allergies', { data: { medicalProfileId, allergen: 'Penicillin', severity: 'Severe', reaction: 'Hives' } }),
	)
	await must(
		'medication',
		page.request.post('/api/medications', { data: { medicalProfileId, name: 'Warfarin', dosage: '5 mg', frequency: 'daily' } }),
	)
	await must(
		'condition',
		page.request.post('/api/medical-conditions', { data: { medicalProfileId, condition: 'Asthma', status: 'Chronic' } }),
	)
	const summary = await must('summary', page.request.get(`/api/medical-profiles/${medicalProfileId}/ips`))
	return Buffer.from(await summary.text(), 'utf8')
}

/** A family member's profile with nothing in it, made by claiming a sticker. */
export async function emptyProfile(page: Page, pin: string) {
	const answer = await page.request.post('/api/medical-profile', { data: { fullName: 'Tomas Empty', relationshipToUser: 'child', pin } })
	expect(answer.ok(), await answer.text()).toBe(true)
	return ((await answer.json()) as { id: number }).id
}
