import { request as http, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { ADMIN_TOKEN } from '../playwright.config.ts'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, test, timeLimit } from './fixtures.ts'
import { startSmtpServer } from './smtp-server.ts'

// Headless Chromium names itself HeadlessChrome, which any analytics rightly takes for a bot: these people use the
// browser a person would.
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36'
const PHONE =
	'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const PASSWORD = 'Visitor-pass-1!'

/** A figure of a stat card (the <dd> after the <dt> that names it): the tab's own, or the header's. */
const card = (scope: Locator, label: string) =>
	scope.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]')
const figure = (page: Page, label: string) => card(page.getByRole('main'), label)
const headerFigure = (page: Page, label: string) => card(page.getByRole('region', { name: /^Figures for/ }), label)

// Its own app instance and database, so every figure the owner reads comes from this journey alone.
test('the owner reads visits, a signup, a scan and an e-mail opened and clicked on every analytics tab; their own browsing is no real user', async ({
	browser,
	hasJs,
}, testInfo) => {
	test.setTimeout(timeLimit(150_000))
	const smtp = await startSmtpServer()
	const app = await startAppServer(await freePort(), { SMTP_URL: smtp.url, ADMIN_TOKEN })
	const contexts: BrowserContext[] = []
	const open = async (userAgent: string) => {
		const context = await browser.newContext({ baseURL: app.baseURL, userAgent, javaScriptEnabled: hasJs, locale: 'en-US' })
		contexts.push(context)
		return context.newPage()
	}
	const { users, codes } = app.fixtures()
	const [codeOwner, ownerAccount] = [users[0]!, users[1]!]
	const code = codes[0]!
	const username = `visitor${testInfo.project.name.replace('-', '')}${Date.now().toString(36)}`
	try {
		// A newcomer finds the site, reads about the team and signs up: a signup on their first visit.
		const visitor = await open(DESKTOP)
		await visitor.goto('/')
		await visitor.goto('/team')
		await visitor.reload()
		await visitor.goto('/signup')
		await visitor.getByLabel('Username').fill(username)
		await visitor.getByLabel('Email').fill(`${username}@e2e.example`)
		await visitor.getByLabel('Password').fill(PASSWORD)
		await visitor.getByLabel(/I agree to the Terms of Service/).check()
		await visitor.getByRole('button', { name: 'Create Account' }).click()
		await expect(visitor).toHaveURL(`${app.baseURL}/login`)

		// A sticker's owner claims it; a responder scans it on a phone, and the owner is e-mailed about the scan.
		const api = await http.newContext({ baseURL: app.baseURL, extraHTTPHeaders: { origin: app.baseURL } })
		expect((await api.post('/login', { form: { email: codeOwner.email, password: codeOwner.password }, maxRedirects: 0 })).status()).toBe(
			302,
		)
		expect((await api.post('/api/pin/claim', { data: { pin: code.pin } })).ok()).toBe(true)
		await api.dispose()
		const responder = await open(PHONE)
		await responder.goto(code.scanUrl)
		await expect.poll(() => smtp.received.filter((mail) => mail.to.includes(codeOwner.email)).length, { timeout: 15_000 }).toBe(1)

		// The owner's mail app shows the message's images (an open), and the owner follows its link (a click, a visit).
		const alert = smtp.received.find((mail) => mail.to.includes(codeOwner.email))!.text
		const pixel = /https?:\/\/[^\s"]+\/e\/o\/[A-Za-z0-9_-]+/.exec(alert)![0]
		const link = /href="([^"]+\/e\/c\/[^"]+)"/.exec(alert)![1]!.replaceAll('&amp;', '&')
		const reader = await open(DESKTOP)
		expect((await reader.request.get(pixel)).headers()['content-type']).toBe('image/gif')
		await reader.goto(link)
		await expect(reader).toHaveURL(/\/auth$/)

		// The owner opens the admin area with the admin token and reads every tab.
		const owner = await open(DESKTOP)
		await owner.goto('/login')
		await owner.getByLabel('Email').fill(ownerAccount.email)
		await owner.getByLabel('Password').fill(ownerAccount.password)
		await owner.getByRole('button', { name: 'Sign In' }).click()
		await expect(owner).toHaveURL(/\/dashboard$/)
		await owner.goto('/owner-panel')
		await owner.getByLabel('Admin token').fill(ADMIN_TOKEN)
		await owner.getByRole('button', { name: 'Admin Access' }).click()
		await expect(owner.getByRole('heading', { name: 'Overview', exact: true })).toBeVisible()
		await expect(owner.getByRole('cell', { name: `New account: ${username}` })).toBeVisible()
		await expect(headerFigure(owner, 'Emergency access')).toHaveText('1')
		await expect(owner.getByRole('figure', { name: /Accounts, last 7 days/ })).toBeVisible()
		await expectNoAxeViolations(owner, testInfo)

		await owner.getByRole('link', { name: 'QR Scans' }).click()
		await expect(figure(owner, 'Total scans')).toHaveText('1')
		await expect(figure(owner, 'Emergency access')).toHaveText('1')
		await expect(owner.getByRole('cell', { name: 'Emergency responder' })).toBeVisible()
		await expect(owner.getByRole('cell', { name: 'mobile' })).toBeVisible()
		const [scans] = await Promise.all([owner.waitForEvent('download'), owner.getByRole('link', { name: 'Export scans (CSV)' }).click()])
		const csv = Buffer.concat(await (await scans.createReadStream()).toArray()).toString('utf8')
		expect(csv.trim().split('\r\n')).toHaveLength(2)
		await expectNoAxeViolations(owner, testInfo)

		await owner.getByRole('link', { name: 'Traffic' }).click()
		// The instance's own fixture accounts were made today too; only the newcomer came through a first visit.
		await expect(owner.getByText('1 on their first visit')).toBeVisible()
		await expect(owner.getByRole('cell', { name: '/team', exact: true })).toBeVisible()
		await expect(owner.getByRole('figure', { name: 'Visits by hour' })).toBeVisible()
		await expectNoAxeViolations(owner, testInfo)

		// Real users: the newcomer, the responder's phone? No: the scan page is a scan, not a page view. The reader's
		// arrival from the e-mail and the sign-in page are; the owner's own pages are left out.
		await owner.getByRole('link', { name: 'Real Users' }).click()
		await expect(owner.getByRole('heading', { name: 'Real users, last 24 hours' })).toBeVisible()
		const realVisits = Number((await figure(owner, 'Real user visits').textContent())!.replaceAll(',', ''))
		expect(realVisits).toBeGreaterThanOrEqual(5)
		await expect(owner.getByText(/of the owner's own/)).toBeVisible()
		await owner.getByLabel('Hours', { exact: true }).selectOption('6')
		await owner.getByRole('button', { name: 'Show' }).click()
		await expect(owner.getByRole('heading', { name: 'Real users, last 6 hours' })).toBeVisible()
		await expect(figure(owner, 'Real user visits')).toHaveText(String(realVisits))

		await owner.getByRole('link', { name: 'Emails' }).click()
		await expect(figure(owner, 'Opened')).toHaveText('1')
		await expect(figure(owner, 'Clicked')).toHaveText('1')
		await expect(figure(owner, 'Visits from e-mail links')).toHaveText('1')
		await expect(owner.getByRole('cell', { name: 'scan-alert' })).toBeVisible()

		// The owner's browsing since has not moved the real-user figures.
		await owner.getByRole('link', { name: 'Real Users' }).click()
		await expect(figure(owner, 'Real user visits')).toHaveText(String(realVisits))
	} finally {
		for (const context of contexts) await context.close()
		await app.stop()
		await smtp.close()
	}
})
