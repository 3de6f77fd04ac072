import type { Locator, Page } from '@playwright/test'
import { expect, expectNoAxeViolations, signIn, test } from './fixtures.ts'

// The Medical Information screen (spec 001 §2, §5, §8), as a signed-in person sees it at /dashboard.
// Dialogs and inline edits live in the URL, so every journey runs with JavaScript on and off.

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

/** A minimal valid one-page PDF, padded with a comment line to exactly `size` bytes when asked. */
function pdf(size?: number) {
	const head = [
		'%PDF-1.4',
		'1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
		'2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
		'3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
		'trailer << /Root 1 0 R >>',
		'',
	].join('\n')
	const tail = '%%EOF\n'
	const padding = size ? `%${' '.repeat(size - head.length - tail.length - 2)}\n` : ''
	return Buffer.from(head + padding + tail, 'latin1')
}

/** Windows executable bytes under a PDF's name. */
const EXECUTABLE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00', 'latin1'), Buffer.alloc(512)])

const successToast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text })
const errorToast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text })

async function openDashboard(page: Page, user: { email: string; password: string }) {
	await signIn(page, user)
	await expect(page).toHaveURL(/\/dashboard$/)
	await expect(page.getByRole('heading', { name: 'Medical Information', level: 1 })).toBeVisible()
}

async function createOwnProfile(page: Page, firstName: string, lastName = 'Tester') {
	await page.getByLabel('First name').fill(firstName)
	await page.getByLabel('Last name').fill(lastName)
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(successToast(page, 'Medical profile created successfully')).toBeVisible()
	await expect(page.getByRole('button', { name: 'Save Personal Information' })).toBeVisible()
}

/** Opens a section's add dialog through its link and returns the dialog. */
async function openDialog(page: Page, link: string, title: string) {
	await page.getByRole('link', { name: link, exact: true }).click()
	const dialog = page.getByRole('dialog', { name: title })
	await expect(dialog).toBeVisible()
	return dialog
}

async function expectFieldError(field: Locator, message: string) {
	await expect(field).toHaveAttribute('aria-invalid', 'true')
	await expect(field).toHaveAccessibleDescription(message)
}

test('create own profile: saved, shown again after a reload, the other sections empty', async ({ page, person }, testInfo) => {
	await openDashboard(page, await person())

	// Before the profile exists the sections explain that it must be saved first, and offer no add buttons.
	await expect(page.getByText('Please save your medical profile first to upload documents.')).toBeVisible()
	await expect(page.getByText('Start by saving your own information under Personal Information below.')).toBeVisible()
	// Contacts, allergies, medications, conditions, insurance, DNR and notes.
	await expect(page.getByText('Please save your medical profile first.', { exact: true })).toHaveCount(7)
	await expect(page.getByRole('link', { name: 'Add Contact', exact: true })).toHaveCount(0)
	await expect(page.getByRole('link', { name: 'Set DNR Status' })).toHaveCount(0)
	await expect(page.getByRole('button', { name: 'Upload Document' })).toHaveCount(0)
	await expectNoAxeViolations(page, testInfo)

	await page.getByLabel('First name').fill('Ada')
	await page.getByLabel('Last name').fill('Lovelace')
	await page.getByLabel('Blood type').selectOption('O-')
	await page.getByLabel('Date of birth').fill('1980-05-17')
	await page.getByRole('button', { name: 'Create Medical Profile' }).click()
	await expect(successToast(page, 'Medical profile created successfully')).toBeVisible()
	await expect(page).toHaveURL(/\/dashboard\?profile=\d+$/)

	await page.reload()
	await expect(page.getByLabel('First name')).toHaveValue('Ada')
	await expect(page.getByLabel('Last name')).toHaveValue('Lovelace')
	await expect(page.getByLabel('Blood type')).toHaveValue('O-')
	await expect(page.getByLabel('Date of birth')).toHaveValue('1980-05-17')
	await expect(page.getByRole('option', { name: 'Ada Lovelace (Yourself)' })).toHaveCount(1)
	await expect(page.getByRole('button', { name: 'Save Personal Information' })).toBeVisible()

	for (const empty of [
		'No emergency contacts added yet.',
		'No allergies recorded yet.',
		'No medications recorded yet.',
		'No medical conditions recorded yet.',
		'No insurance policies recorded yet.',
		'No DNR status recorded yet.',
		'No medical documents uploaded yet.',
		'No additional notes recorded yet.',
	])
		await expect(page.getByText(empty, { exact: true })).toBeVisible()
	await expect(page.getByText('Please save your medical profile first to upload documents.')).toHaveCount(0)
	// With one profile there is nothing to delete.
	await expect(page.getByRole('link', { name: 'Delete Selected Profile' })).toHaveCount(0)
	await expectNoAxeViolations(page, testInfo)
})

test('add one item to every section; an empty contact shows the required-field messages beside the fields; an allergy deleted after confirming', async ({
	page,
	hasJs,
	person,
}, testInfo) => {
	test.slow() // Fourteen round trips, each a navigation without JavaScript.
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Grace', 'Hopper')

	// Emergency contact, first submitted empty.
	let dialog = await openDialog(page, 'Add Contact', 'Add Emergency Contact')
	await dialog.getByRole('button', { name: 'Add Contact' }).click()
	await expectFieldError(dialog.getByLabel('Name', { exact: true }), 'Name is required')
	await expectFieldError(dialog.getByLabel('Relationship'), 'Relationship is required')
	await expectFieldError(dialog.getByLabel('Phone number'), 'Phone number is required')
	await expect(dialog.getByLabel('Email (optional)')).not.toHaveAttribute('aria-invalid', 'true')
	await expectNoAxeViolations(page, testInfo)
	await dialog.getByLabel('Name', { exact: true }).fill('Alan Turing')
	await dialog.getByLabel('Relationship').fill('Brother')
	await dialog.getByLabel('Phone number').fill('+1 555 010 2000')
	await dialog.getByRole('button', { name: 'Add Contact' }).click()
	await expect(successToast(page, 'Emergency contact added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()

	dialog = await openDialog(page, 'Add Allergy', 'Add Allergy')
	await dialog.getByLabel('Allergen').fill('Penicillin')
	await dialog.getByLabel('Severity').selectOption('Severe')
	await dialog.getByLabel('Reaction (optional)').fill('Hives')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(successToast(page, 'Allergy added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()
	dialog = await openDialog(page, 'Add Allergy', 'Add Allergy')
	await dialog.getByLabel('Allergen').fill('Latex')
	await dialog.getByLabel('Severity').selectOption('Mild')
	await dialog.getByRole('button', { name: 'Add Allergy' }).click()
	await expect(dialog).toBeHidden()

	dialog = await openDialog(page, 'Add Medication', 'Add Medication')
	await dialog.getByLabel('Medication name').fill('Metformin')
	await dialog.getByLabel('Dosage').fill('500 mg')
	await dialog.getByLabel('Frequency').fill('twice daily')
	await dialog.getByRole('button', { name: 'Add Medication' }).click()
	await expect(successToast(page, 'Medication added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()

	dialog = await openDialog(page, 'Add Condition', 'Add Medical Condition')
	await dialog.getByLabel('Condition', { exact: true }).fill('Type 2 diabetes')
	await dialog.getByLabel('Status').selectOption('Chronic')
	await dialog.getByRole('button', { name: 'Add Condition' }).click()
	await expect(successToast(page, 'Medical condition added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()

	dialog = await openDialog(page, 'Add Policy', 'Add Insurance Policy')
	await dialog.getByLabel('Insurance company').fill('Acme Health')
	await dialog.getByLabel('Policy number').fill('POL-123')
	await dialog.getByLabel('Plan type').selectOption('PPO')
	await dialog.getByLabel('Card photo (front, optional)').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: PNG })
	await dialog.getByRole('button', { name: 'Add Policy' }).click()
	await expect(successToast(page, 'Insurance policy added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()

	await page.getByRole('link', { name: 'Add Notes' }).click()
	await page.getByLabel('Notes for responders').fill('Carries a glucose meter in the left jacket pocket.')
	await page.getByRole('button', { name: 'Save Notes' }).click()
	await expect(successToast(page, 'Medical notes saved successfully')).toBeVisible()

	await page.reload()
	const section = (name: string) => page.getByRole('region', { name })
	await expect(section('Emergency Contacts').getByText('Alan Turing')).toBeVisible()
	await expect(section('Emergency Contacts').getByRole('link', { name: '+1 555 010 2000' })).toHaveAttribute('href', 'tel:+1 555 010 2000')
	await expect(section('Allergies').getByText('Penicillin')).toBeVisible()
	await expect(section('Allergies').getByText('Severe', { exact: true })).toBeVisible()
	await expect(section('Allergies').getByText('Reaction: Hives')).toBeVisible()
	await expect(section('Current Medications').getByText('Metformin')).toBeVisible()
	await expect(section('Current Medications').getByText('500 mg · twice daily')).toBeVisible()
	await expect(section('Medical Conditions').getByText('Type 2 diabetes')).toBeVisible()
	await expect(section('Medical Conditions').getByText('Chronic', { exact: true })).toBeVisible()
	await expect(section('Insurance Policies').getByText('Policy POL-123')).toBeVisible()
	const card = section('Insurance Policies').getByRole('img', { name: 'Front of the Acme Health insurance card' })
	await expect(card).toBeVisible()
	const cardResponse = await page.request.get((await card.getAttribute('src'))!)
	expect(cardResponse.headers()['content-type']).toBe('image/png')
	// Stored re-encoded (only the pixels are kept): a PNG of the same size, whatever its bytes.
	const served = Buffer.from(await cardResponse.body())
	expect(served.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true)
	expect(served.subarray(16, 24).equals(PNG.subarray(16, 24))).toBe(true)
	await expect(section('Additional Medical Notes').getByText('Carries a glucose meter in the left jacket pocket.')).toBeVisible()
	for (const empty of [
		'No emergency contacts added yet.',
		'No allergies recorded yet.',
		'No medications recorded yet.',
		'No medical conditions recorded yet.',
		'No insurance policies recorded yet.',
		'No additional notes recorded yet.',
	])
		await expect(page.getByText(empty)).toHaveCount(0)
	await expectNoAxeViolations(page, testInfo)

	// Deleting asks first, by keyboard alone: the question starts on its way out; Cancel keeps the row and gives focus
	// back to its Delete.
	const allergies = section('Allergies')
	const deletePenicillin = allergies.getByRole('link', { name: 'Delete allergy Penicillin' })
	await deletePenicillin.focus()
	await page.keyboard.press('Enter')
	const question = page.getByRole('dialog', { name: 'Delete allergy Penicillin?' })
	await expect(question.getByRole('link', { name: 'Close' })).toBeFocused()
	await expectNoAxeViolations(page, testInfo)
	await page.keyboard.press('Tab')
	await expect(question.getByRole('link', { name: 'Cancel' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(question).toBeHidden()
	await expect(deletePenicillin).toBeFocused()
	await expect(allergies.getByText('Penicillin')).toBeVisible()

	// Confirmed, it is gone and said so; focus is on the next row's first control (without JavaScript, on the heading).
	const heading = allergies.getByRole('heading', { name: 'Allergies' })
	const deleteLatex = allergies.getByRole('link', { name: 'Delete allergy Latex' })
	await page.keyboard.press('Enter')
	await expect(question.getByRole('link', { name: 'Close' })).toBeFocused()
	await page.keyboard.press('Tab')
	await page.keyboard.press('Tab')
	await expect(question.getByRole('button', { name: 'Delete' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(successToast(page, 'Allergy deleted successfully')).toBeVisible()
	await expect(question).toBeHidden()
	await expect(allergies.getByText('Penicillin')).toHaveCount(0)
	await expect(hasJs ? deleteLatex : heading).toBeFocused()

	// The last row: focus goes to the section's heading.
	await deleteLatex.focus()
	await page.keyboard.press('Enter')
	await page.getByRole('dialog', { name: 'Delete allergy Latex?' }).getByRole('button', { name: 'Delete' }).press('Enter')
	await expect(allergies.getByText('No allergies recorded yet.')).toBeVisible()
	await expect(heading).toBeFocused()
	await expect(successToast(page, 'Allergy deleted successfully')).toBeVisible()
})

test('edit a medication inline', async ({ page, person }) => {
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Edith')
	const dialog = await openDialog(page, 'Add Medication', 'Add Medication')
	await dialog.getByLabel('Medication name').fill('Lisinopril')
	await dialog.getByLabel('Dosage').fill('10 mg')
	await dialog.getByLabel('Frequency').fill('once daily')
	await dialog.getByRole('button', { name: 'Add Medication' }).click()
	await expect(successToast(page, 'Medication added successfully')).toBeVisible()
	const medications = page.getByRole('region', { name: 'Current Medications' })
	await expect(medications.getByText('10 mg · once daily')).toBeVisible()

	await medications.getByRole('link', { name: 'Edit medication Lisinopril' }).click()
	const form = medications.getByRole('form', { name: 'Edit medication Lisinopril' })
	await expect(form.getByLabel('Dosage')).toHaveValue('10 mg')
	await form.getByLabel('Dosage').fill('20 mg')
	await form.getByRole('button', { name: 'Save' }).click()
	await expect(successToast(page, 'Medication updated successfully')).toBeVisible()
	await expect(form).toBeHidden()
	await expect(medications.getByText('20 mg · once daily')).toBeVisible()
	await expect(medications.getByText('10 mg · once daily')).toHaveCount(0)
	await page.reload()
	await expect(medications.getByText('20 mg · once daily')).toBeVisible()
})

test('DNR needs a document; with one it is shown with its link; clearing removes it', async ({ page, person }, testInfo) => {
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Dora')
	const dnr = page.getByRole('region', { name: 'DNR Status' })

	let dialog = await openDialog(page, 'Set DNR Status', 'DNR Status')
	await dialog.getByLabel('Status').selectOption({ label: 'Do Not Resuscitate' })
	await dialog.getByRole('button', { name: 'Save DNR Status' }).click()
	await expect(errorToast(page, 'Please upload a document for DNR or POLST status')).toBeVisible()
	await expectFieldError(
		dialog.getByLabel('DNR or POLST document (required for DNR and POLST)'),
		'Please upload a document for DNR or POLST status',
	)
	await expect(dialog.getByLabel('Status')).toHaveValue('DNR')
	await expectNoAxeViolations(page, testInfo)
	// Behind an open dialog the page is out of reach (inert, or hidden without JavaScript); the refused save left it as it was.
	await expect(page.locator('text=No DNR status recorded yet.')).toHaveCount(1)

	await dialog
		.getByLabel('DNR or POLST document (required for DNR and POLST)')
		.setInputFiles({ name: 'dnr-order.pdf', mimeType: 'application/pdf', buffer: pdf() })
	await dialog.getByLabel('Where the original is kept').fill('On the refrigerator')
	await dialog.getByRole('button', { name: 'Save DNR Status' }).click()
	await expect(successToast(page, 'DNR status saved successfully')).toBeVisible()
	await expect(dialog).toBeHidden()
	await expect(dnr.getByText('Do Not Resuscitate')).toBeVisible()
	await expect(dnr.getByText('Original kept: On the refrigerator')).toBeVisible()
	const link = dnr.getByRole('link', { name: 'dnr-order.pdf' })
	await expect(link).toBeVisible()
	const document = await page.request.get((await link.getAttribute('href'))!)
	expect(document.status()).toBe(200)
	expect(document.headers()['content-type']).toBe('application/pdf')

	// Reopening the dialog shows the document on file.
	dialog = await openDialog(page, 'Change DNR Status', 'DNR Status')
	await expect(dialog.getByLabel('Replace document (on file: dnr-order.pdf)')).toBeVisible()
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(dialog).toBeHidden()

	// Clearing asks first, by keyboard alone: the question starts on its way out; once confirmed, focus is on the heading.
	await dnr.getByRole('link', { name: 'Clear DNR Status' }).focus()
	await page.keyboard.press('Enter')
	const question = page.getByRole('dialog', { name: 'Clear DNR Status?' })
	await expect(question.getByRole('link', { name: 'Close' })).toBeFocused()
	await page.keyboard.press('Tab')
	await page.keyboard.press('Tab')
	await expect(question.getByRole('button', { name: 'Clear DNR Status' })).toBeFocused()
	await page.keyboard.press('Enter')
	await expect(successToast(page, 'DNR status cleared')).toBeVisible()
	await expect(dnr.getByText('No DNR status recorded yet.')).toBeVisible()
	await expect(dnr.getByRole('link', { name: 'dnr-order.pdf' })).toHaveCount(0)
	await expect(dnr.getByRole('heading', { name: 'DNR Status' })).toBeFocused()
})

test('documents: a renamed executable is refused beside the field; a PDF is listed with its size; delete', async ({ page, person }) => {
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Doc')
	const documents = page.getByRole('region', { name: 'Medical Documents' })
	const field = documents.getByLabel(/^Upload a document/)
	const upload = documents.getByRole('button', { name: 'Upload Document' })

	await field.setInputFiles({ name: 'virus.pdf', mimeType: 'application/pdf', buffer: EXECUTABLE })
	await upload.click()
	const refusal = "This file's content does not match its type. Please upload a real PDF, JPG, PNG, DOC or DOCX file."
	await expectFieldError(field, refusal)
	await expect(errorToast(page, 'Upload Failed')).toBeVisible()
	await expect(documents.getByText('No medical documents uploaded yet.')).toBeVisible()
	await expect(documents.getByRole('link', { name: 'virus.pdf' })).toHaveCount(0)

	// 1,300,000 bytes is 1.2398 MB.
	await field.setInputFiles({ name: 'blood-work.pdf', mimeType: 'application/pdf', buffer: pdf(1_300_000) })
	await upload.click()
	await expect(successToast(page, 'Medical document uploaded successfully')).toBeVisible()
	await expect(documents.getByRole('link', { name: 'blood-work.pdf', exact: true })).toBeVisible()
	await expect(documents.getByText('PDF · 1.24 MB')).toBeVisible()
	await expect(documents.getByText('No medical documents uploaded yet.')).toHaveCount(0)
	await expect(field).not.toHaveAttribute('aria-invalid', 'true')
	await page.reload()
	await expect(documents.getByRole('link', { name: 'blood-work.pdf', exact: true })).toBeVisible()
	await expect(documents.getByRole('link', { name: 'virus.pdf' })).toHaveCount(0)

	await documents.getByRole('link', { name: 'Delete document blood-work.pdf' }).click()
	await page.getByRole('dialog', { name: 'Delete document blood-work.pdf?' }).getByRole('button', { name: 'Delete' }).click()
	await expect(successToast(page, 'Document deleted successfully')).toBeVisible()
	await expect(documents.getByRole('link', { name: 'blood-work.pdf', exact: true })).toHaveCount(0)
	await expect(documents.getByText('No medical documents uploaded yet.')).toBeVisible()
	await expect(documents.getByRole('heading', { name: 'Medical Documents' })).toBeFocused()
})

test('family member by PIN: a wrong PIN is refused; created and selected; deleted after confirming', async ({
	page,
	person,
	sticker,
}, testInfo) => {
	const code = sticker()
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Parent')
	const selected = page.getByLabel('Selected profile')

	let dialog = await openDialog(page, 'Add Family Member', 'Add Family Member Profile')
	await dialog.getByLabel('Full name').fill('Kid Tester')
	await expect(dialog.getByLabel('Relationship')).toHaveValue('child')
	const pin = dialog.getByLabel('PIN from their QR code sticker or card')
	await pin.fill('ZZZZ2345')
	await dialog.getByRole('button', { name: 'Create Profile' }).click()
	await expect(errorToast(page, 'Invalid or already claimed PIN')).toBeVisible()
	await expectFieldError(pin, 'Invalid or already claimed PIN')
	await expect(page.getByRole('option', { name: 'Kid Tester (Child)' })).toHaveCount(0)

	await dialog.getByLabel('Full name').fill('Kid Tester')
	await pin.fill(code.pin)
	await dialog.getByRole('button', { name: 'Create Profile' }).click()
	await expect(successToast(page, 'Profile Created')).toBeVisible()
	await expect(successToast(page, 'Kid Tester has been created and QR code activated successfully.')).toBeVisible()
	await expect(dialog).toBeHidden()
	const kid = page.getByRole('option', { name: 'Kid Tester (Child)' })
	await expect(selected).toHaveValue((await kid.getAttribute('value'))!)
	// The new profile owns the sticker's code, and the sections show the new profile, not the parent's.
	await expect(page.getByRole('button', { name: 'Update QR Codes' })).toBeVisible()
	await expect(page.getByLabel('First name')).toHaveValue('')
	await expect(page.getByLabel('Last name')).toHaveValue('')
	await expect(page.getByText('No emergency contacts added yet.')).toBeVisible()

	await page.getByRole('link', { name: 'Delete Selected Profile' }).click()
	dialog = page.getByRole('dialog', { name: 'Delete this profile?' })
	await expect(dialog.getByText(/Kid Tester \(Child\).*This cannot be undone\./)).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	await dialog.getByRole('button', { name: 'Delete Profile' }).click()
	await expect(successToast(page, 'Profile Deleted')).toBeVisible()
	await expect(dialog).toBeHidden()
	await expect(kid).toHaveCount(0)
	// Its Delete went with it: focus is on the profile selector.
	await expect(selected).toBeFocused()
	await expect(selected).toHaveValue((await page.getByRole('option', { name: 'Parent Tester (Yourself)' }).getAttribute('value'))!)
	await expect(page.getByLabel('First name')).toHaveValue('Parent')
	// The last profile cannot be deleted, so the button is not offered.
	await expect(page.getByRole('link', { name: 'Delete Selected Profile' })).toHaveCount(0)
})

test('a lost connection loses nothing: a contact saved offline stays in its dialog, a page asked for offline says so, both work again online', async ({
	page,
	hasJs,
	person,
}) => {
	test.skip(!hasJs, 'Without JavaScript the browser itself reports a failed form submission.')
	await openDashboard(page, await person())
	await createOwnProfile(page, 'Hedy', 'Lamarr')
	const dialog = await openDialog(page, 'Add Contact', 'Add Emergency Contact')
	await dialog.getByLabel('Name', { exact: true }).fill('Anthony Lamarr')
	await dialog.getByLabel('Relationship').fill('Son')
	await dialog.getByLabel('Phone number').fill('+1 555 010 3000')

	await page.context().setOffline(true)
	await dialog.getByRole('button', { name: 'Add Contact' }).click()
	await expect(errorToast(page, 'The connection to the server failed, so this may not have been saved.')).toBeVisible()
	await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Anthony Lamarr')
	await expect(dialog.getByLabel('Phone number')).toHaveValue('+1 555 010 3000')

	await page.context().setOffline(false)
	await dialog.getByRole('button', { name: 'Add Contact' }).click()
	await expect(successToast(page, 'Emergency contact added successfully')).toBeVisible()
	await expect(dialog).toBeHidden()
	await expect(page.getByText('Anthony Lamarr')).toBeVisible()

	// A page asked for while offline says so, and Try Again loads it once the connection is back.
	await page.context().setOffline(true)
	await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Medical Info' }).click()
	await expect(page.getByRole('heading', { name: 'No connection' })).toBeVisible()
	await page.context().setOffline(false)
	await page.getByRole('link', { name: 'Try Again' }).click()
	await expect(page.getByRole('heading', { name: 'Medical Information', level: 1 })).toBeVisible()
	await expect(page.getByText('Anthony Lamarr')).toBeVisible()
})
