import type { Page } from '@playwright/test'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, test, timeLimit } from './fixtures.ts'

// An instance with a strict tier of 3 a minute, so a limit is reached in a few steps.
let app: Awaited<ReturnType<typeof startAppServer>>

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
	test.setTimeout(timeLimit(90_000))
	app = await startAppServer(await freePort(), { RATE_LIMIT_STRICT_PER_MINUTE: '3' })
})

test.afterAll(async () => {
	await app?.stop()
})

/** Submits and waits for the answer, with or without JavaScript, so no attempt overtakes another. */
async function submit(page: Page) {
	const answered = page.waitForResponse((response) => response.request().method() === 'POST')
	await page.getByRole('button', { name: 'Sign In' }).click()
	await answered
}

test('past the sign-in limit the page stays, with the e-mail as typed and the message above the form', async ({ page }, testInfo) => {
	const user = app.fixtures().users[0]!
	await page.goto(`${app.baseURL}/login`)
	await page.getByLabel('Email').fill(user.email)
	for (let attempt = 0; attempt < 3; attempt++) {
		// After a refusal only the password is typed again, as a person would.
		await page.getByLabel('Password').fill(`wrong-password-${attempt}`)
		await submit(page)
		await expect(page.getByText('Invalid email or password')).toBeVisible()
	}
	await page.getByLabel('Password').fill(user.password)
	await submit(page)
	await expect(page.getByText('Too many attempts. Please wait a minute and try again.')).toBeVisible()
	await expect(page).toHaveURL(/\/login$/)
	await expect(page.getByLabel('Email')).toHaveValue(user.email)
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
})
