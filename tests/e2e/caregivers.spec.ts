import { mailedInstanceForTheseTests } from './app-server.ts'
import { expect, expectNoAxeViolations, test } from './fixtures.ts'

// An instance of its own whose mail goes to a real SMTP server on loopback: the invitation's link is read from there.
test.describe('caregivers, with their invitation delivered', () => {
	const instance = mailedInstanceForTheseTests()
	const url = (path: string) => instance().url(path)

	test('the owner invites an editor, who signs in, accepts and adds an allergy; the owner sees who did it, revokes, and the profile is closed to them at once', async ({
		page,
		browser,
		hasJs,
	}, testInfo) => {
		test.slow()
		const owner = instance().app.fixtures().users[0]!
		const helper = instance().app.fixtures().users[1]!
		await page.goto(url('/login'))
		await page.getByLabel('Email').fill(owner.email)
		await page.getByLabel('Password').fill(owner.password)
		await page.getByRole('button', { name: 'Sign In' }).click()
		await expect(page).toHaveURL(url('/dashboard'))
		await page.getByLabel('First name').fill('Rosa')
		await page.getByLabel('Last name').fill('Kept')
		await page.getByRole('button', { name: 'Create Medical Profile' }).click()
		await expect(page.getByText('Medical profile created successfully')).toBeVisible()

		// The owner invites by e-mail, as an editor.
		await page.goto(url('/medical-info'))
		const card = page.getByRole('region', { name: 'Caregivers' })
		await card.getByLabel('Their email').fill(owner.email)
		await card.getByLabel('Role').selectOption('editor')
		await card.getByRole('button', { name: 'Send Invitation' }).click()
		await expect(page.getByRole('region', { name: 'Caregivers' }).getByText('This is your own address')).toBeVisible()
		await page.getByRole('region', { name: 'Caregivers' }).getByLabel('Their email').fill(helper.email)
		await page.getByRole('region', { name: 'Caregivers' }).getByLabel('Role').selectOption('editor')
		await page.getByRole('region', { name: 'Caregivers' }).getByRole('button', { name: 'Send Invitation' }).click()
		await expect(page.getByText(`We e-mailed an invitation to ${helper.email}. It works for 7 days.`)).toBeVisible()
		await expect(page.getByRole('region', { name: 'Caregivers' }).getByText(/^Editor · Invitation waiting, until /)).toBeVisible()
		await expectNoAxeViolations(page, testInfo)

		await instance().mailTo(helper.email, 'You are invited to help keep a medical profile').toContain('/invitations/')
		const mail = instance().smtp.received.find((m) => m.to.includes(helper.email))!
		expect(mail.text).toContain('Person0 invited you to help keep the emergency medical profile of Rosa Kept')
		const link = /https?:\/\/\S+\/invitations\/[\w-]+/.exec(mail.text)![0]
		expect(link.startsWith(instance().app.baseURL)).toBe(true)

		const other = await browser.newContext({ javaScriptEnabled: hasJs })
		try {
			// The caregiver opens the link signed out, signs in, and comes back to it.
			const theirs = await other.newPage()
			await theirs.goto(link)
			await expect(theirs.getByRole('heading', { name: 'Help keep a medical profile' })).toBeVisible()
			await expect(theirs.getByText(`Person0 invited ${helper.email} to help keep Rosa Kept's medical profile as editor.`)).toBeVisible()
			await expectNoAxeViolations(theirs, testInfo)
			await theirs.getByRole('link', { name: 'Sign In to Accept' }).click()
			await theirs.getByLabel('Email').fill(helper.email)
			await theirs.getByLabel('Password').fill(helper.password)
			await theirs.getByRole('button', { name: 'Sign In' }).click()
			await expect(theirs).toHaveURL(link)
			await expectNoAxeViolations(theirs, testInfo)
			await theirs.getByRole('button', { name: 'Accept Invitation' }).click()
			await expect(theirs).toHaveURL(/\/medical-info\?profile=\d+$/)
			const profileUrl = theirs.url()
			await expect(theirs.getByText('You now help keep this profile as an editor, shared by Person0.')).toBeVisible()
			await expect(theirs.getByLabel('Selected profile')).toHaveText(/Rosa Kept \(Shared by Person0\)/)
			await expect(theirs.getByText('Shared with you by Person0: you can read and change its medical information.')).toBeVisible()
			// What is the owner's alone is not offered: their caregivers, reminders, deleting the profile.
			await expect(theirs.getByRole('region', { name: 'Caregivers' })).toHaveCount(0)
			await expect(theirs.getByRole('region', { name: 'Reminders and Alerts' })).toHaveCount(0)
			await expect(theirs.getByRole('link', { name: 'Delete Selected Profile' })).toHaveCount(0)
			await expect(theirs.getByRole('region', { name: 'Scan History' })).toBeVisible()
			await expectNoAxeViolations(theirs, testInfo)

			// The link works once.
			await theirs.goto(link)
			await expect(theirs.getByText('This invitation has already been accepted: each link works once.')).toBeVisible()

			// The caregiver adds an allergy.
			await theirs.goto(profileUrl)
			await theirs.getByRole('link', { name: 'Add Allergy' }).click()
			const dialog = theirs.getByRole('dialog')
			await dialog.getByLabel('Allergen').fill('Latex')
			await dialog.getByLabel('Severity').selectOption('Severe')
			await dialog.getByRole('button', { name: 'Add Allergy' }).click()
			await expect(theirs.getByText('Allergy added successfully')).toBeVisible()

			// The owner sees the allergy, and who added it.
			await page.goto(url('/medical-info'))
			await expect(page.getByRole('region', { name: 'Allergies' }).getByText('Latex')).toBeVisible()
			await page.goto(url('/dashboard/profile/access-record?kind=change'))
			const added = page.getByRole('row').filter({ hasText: 'Allergy added' })
			await expect(added).toHaveCount(1)
			await expect(added).toContainText(`A caregiver: Person1 Example <${helper.email}>`)
			await expectNoAxeViolations(page, testInfo)

			// The owner revokes, after a question.
			await page.goto(url('/medical-info'))
			await page.getByRole('link', { name: `Revoke ${helper.email}` }).click()
			const ask = page.getByRole('dialog', { name: `Revoke ${helper.email}?` })
			await expect(ask).toBeVisible()
			await expectNoAxeViolations(page, testInfo)
			await ask.getByRole('button', { name: 'Revoke' }).click()
			await expect(page.getByText('They can no longer see or change this profile.')).toBeVisible()
			await expect(page.getByRole('region', { name: 'Caregivers' }).getByText('Nobody else helps keep this profile yet.')).toBeVisible()

			// At once, the profile's address refuses the caregiver, on the page and in the JSON API.
			await theirs.goto(profileUrl)
			await expect(theirs.getByRole('alert').filter({ hasText: 'The profile in this address is not shared with you' })).toBeVisible()
			await expect(theirs.getByText('Latex')).toHaveCount(0)
			const id = new URL(profileUrl).searchParams.get('profile')
			expect((await theirs.request.get(url(`/api/medical-profile/${id}`))).status()).toBe(404)
			expect(await (await theirs.request.get(url('/api/medical-profiles'))).json()).toEqual([])
		} finally {
			await other.close()
		}
	})
})
