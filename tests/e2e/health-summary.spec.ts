import { expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'
import { emptyProfile, exportedSummary } from './health-summary-kit.ts'

// Fill from a health summary, with JavaScript and without: the summary of one profile (made through the JSON API,
// downloaded as the QR Codes tab would) uploaded into an empty one, reviewed, confirmed.

test('an exported summary uploaded into an empty profile: reviewed beside it, the ticked items added', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	const summary = await exportedSummary(page)
	const profileId = await emptyProfile(page, sticker().pin)

	await page.goto(`/medical-info?profile=${profileId}`)
	await expect(page.getByRole('region', { name: 'Allergies' }).getByText('No allergies recorded yet.')).toBeVisible()
	await page.getByRole('region', { name: 'Health summary' }).getByRole('link', { name: 'Fill from a health summary' }).click()
	await expect(page).toHaveURL(new RegExp(`/medical-info/import\\?profile=${profileId}$`))
	await expect(page.getByRole('heading', { name: 'Fill from a health summary', level: 1 })).toBeVisible()
	await page
		.getByLabel('Health summary file (FHIR JSON)')
		.setInputFiles({ name: 'summary.json', mimeType: 'application/json', buffer: summary })
	await page.getByRole('button', { name: 'Read the summary' }).click()

	// The review: focus on its heading, each item ticked, what the profile holds beside it, nothing saved yet.
	const review = page.getByRole('region', { name: 'Review what to add to Tomas Empty (Child)' })
	await expect(review.getByRole('heading', { level: 2 })).toBeFocused()
	const allergies = review.getByRole('region', { name: 'Allergies' })
	await expect(allergies.getByRole('group', { name: 'From the summary' }).getByRole('checkbox', { name: /Penicillin/ })).toBeChecked()
	await expect(allergies.getByText('None yet.')).toBeVisible()
	await expect(review.getByRole('checkbox', { name: /Warfarin/ })).toBeChecked()
	const asthma = review.getByRole('checkbox', { name: /Asthma/ })
	await expect(asthma).toBeChecked()
	await expectNoAxeViolations(page, testInfo)
	// The condition is left out.
	await asthma.uncheck()
	await review.getByRole('button', { name: 'Add the chosen items' }).click()

	await expect(page).toHaveURL(new RegExp(`/medical-info\\?profile=${profileId}$`))
	await expect(page.getByRole('status').filter({ hasText: 'Added 1 allergy and 1 medication.' })).toBeVisible()
	await expect(page.getByRole('region', { name: 'Allergies' }).getByText('Penicillin')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Current Medications' }).getByText('Warfarin')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Medical Conditions' }).getByText('No medical conditions recorded yet.')).toBeVisible()

	// Read again, what was added is already in the profile: unticked, and said so.
	await page.goto(`/medical-info/import?profile=${profileId}`)
	await page
		.getByLabel('Health summary file (FHIR JSON)')
		.setInputFiles({ name: 'summary.json', mimeType: 'application/json', buffer: summary })
	await page.getByRole('button', { name: 'Read the summary' }).click()
	const again = page.getByRole('checkbox', { name: /Penicillin/ })
	await expect(again).not.toBeChecked()
	await expect(again).toHaveAccessibleName(/Already in the profile/)
	await expect(page.getByRole('checkbox', { name: /Asthma/ })).toBeChecked()
})

test('a file that is not a health summary is refused beside its field, which has the focus', async ({ page, person, sticker }) => {
	await signIn(page, await person())
	await expect(page).toHaveURL(/\/dashboard$/)
	const profileId = await emptyProfile(page, sticker().pin)
	await page.goto(`/medical-info/import?profile=${profileId}`)
	const file = page.getByLabel('Health summary file (FHIR JSON)')
	await file.setInputFiles({ name: 'scan.json', mimeType: 'application/json', buffer: Buffer.from('%PDF-1.4 not json') })
	await page.getByRole('button', { name: 'Read the summary' }).click()
	await expect(file).toHaveAttribute('aria-invalid', 'true')
	await expect(file).toHaveAccessibleDescription(/This file is not JSON: a health summary is a FHIR JSON file \(\.json\)\.$/)
	await expect(file).toBeFocused()
	await expect(page).toHaveTitle(/^Error: Fill from a health summary/)
})
