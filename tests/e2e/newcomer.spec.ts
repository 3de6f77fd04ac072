import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import postgres from 'postgres'
import { rowsMentioning, type RawQuery } from '../leftovers.ts'
import { freePort, startAppServer } from './app-server.ts'
import { expect, test, timeLimit } from './fixtures.ts'
import { startSmtpServer } from './smtp-server.ts'

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
const PASSWORD = 'Newcomer-pass-1!'

/** Opens the stopped instance's database and returns what still mentions the values. */
async function leftovers(database: { url?: string; pgliteDir?: string }, values: string[]) {
	if (database.url) {
		const sql = postgres(database.url, { max: 1, onnotice: () => {} })
		try {
			return await rowsMentioning((text, params) => sql.unsafe(text, params as never[]) as unknown as ReturnType<RawQuery>, values)
		} finally {
			await sql.end()
		}
	}
	const db = new PGlite(database.pgliteDir!)
	try {
		return await rowsMentioning(async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows, values)
	} finally {
		await db.close()
	}
}

function filesIn(dir: string) {
	try {
		return readdirSync(dir, { recursive: true }).filter((f) => /\.\w+$/.test(String(f)))
	} catch {
		return []
	}
}

// Its own app instance (its mail goes to a real SMTP server on loopback; its database is opened once it has stopped).
test('a newcomer signs up, agrees to the forms, edits their name, requests a free code by mail and deletes the account: nothing of theirs is left', async ({
	page,
}, testInfo) => {
	test.setTimeout(timeLimit(120_000))
	const smtp = await startSmtpServer()
	const app = await startAppServer(await freePort(), { SMTP_URL: smtp.url })
	const url = (path: string) => `${app.baseURL}${path}`
	const stamp = `${testInfo.project.name}${Date.now()}`
	const email = `newcomer-${stamp}@e2e.example`
	let userId = ''
	try {
		await page.goto(url('/signup'))
		await page.getByLabel('Username').fill(`newcomer${stamp}`)
		await page.getByLabel('Email').fill(email)
		await page.getByLabel('Password').fill(PASSWORD)
		await page.getByLabel(/I agree to the Terms of Service/).check()
		await page.getByRole('button', { name: 'Create Account' }).click()
		await expect(page).toHaveURL(url('/login'))
		await page.getByLabel('Email').fill(email)
		await page.getByLabel('Password').fill(PASSWORD)
		await page.getByRole('button', { name: 'Sign In' }).click()

		await expect(page).toHaveURL(/\/consent\?redirectTo=%2Fdashboard$/)
		const boxes = await page.getByRole('checkbox').all()
		expect(boxes).toHaveLength(3)
		await boxes[0]!.check()
		await boxes[1]!.check()
		if (testInfo.project.name === 'no-js') {
			await page.getByRole('button', { name: 'Continue' }).click()
			await expect(page.getByText('Please agree to all required consents to continue.').first()).toBeVisible()
			await expect(page).toHaveURL(/\/consent\?/)
		}
		await boxes[2]!.check()
		await page.getByRole('button', { name: 'Continue' }).click()
		await expect(page).toHaveURL(url('/dashboard'))

		await page.getByLabel('First name').fill('Nina')
		await page.getByLabel('Last name').fill('Newcomer')
		await page.getByRole('button', { name: 'Create Medical Profile' }).click()
		await expect(page.getByText('Medical profile created successfully')).toBeVisible()
		await page.getByLabel('Profile picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
		await page.getByRole('button', { name: 'Upload Photo' }).click()
		await expect(page.getByRole('img', { name: /Photo of/ })).toBeVisible()
		userId =
			/\/users\/([^/]+)\//.exec(
				filesIn(join(app.dataDir, 'uploads'))
					.map((f) => `/${String(f)}`)
					.join('\n'),
			)?.[1] ?? ''
		expect(userId).not.toBe('')

		await page.goto(url('/dashboard/profile'))
		await page.getByLabel('First name').fill('Nina')
		await page.getByLabel('Last name').fill('Newcomer')
		await page.getByRole('button', { name: 'Save Changes' }).click()
		await expect(page.getByText('Your name has been saved.')).toBeVisible()

		await page.goto(url('/request-qr'))
		await expect(page.getByLabel('Email')).toHaveValue(email)
		await page.getByLabel('Full name').fill('Nina Newcomer')
		await page.getByLabel('Street address').fill('7 Lighthouse Lane')
		await page.getByLabel('City').fill('Bar Harbor')
		await page.getByLabel('State/Province').fill('ME')
		await page.getByLabel('Postal code').fill('04609')
		await page.getByRole('button', { name: 'Submit Request' }).click()
		await expect(page).toHaveURL(url('/request-qr/sent'))
		await expect
			.poll(() => smtp.received.find((m) => m.to.includes(email))?.subject, { timeout: 15_000 })
			.toBe('We received your free QR code request')

		await page.goto(url('/dashboard/profile'))
		await page.getByRole('link', { name: 'Delete Account' }).click()
		await page.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Delete My Account' }).click()
		await expect(page.getByText('Account Deleted')).toBeVisible()
	} finally {
		await app.stop({ keepData: true })
		await smtp.close()
	}
	try {
		expect(filesIn(join(app.dataDir, 'uploads', 'users', userId))).toEqual([])
		expect(await leftovers(app.database, [userId, email, 'Nina Newcomer', 'Lighthouse Lane'])).toEqual([])
	} finally {
		app.removeData()
	}
})
