import type { Page } from '@playwright/test'
import { freePort, startAppServer } from './app-server.ts'
import { expect, expectNoAxeViolations, test, timeLimit } from './fixtures.ts'
import { FIXTURE_PASSWORD } from './fixture-users.ts'
import { startOidcProvider } from './oidc-provider.ts'

let provider: Awaited<ReturnType<typeof startOidcProvider>>
let app: Awaited<ReturnType<typeof startAppServer>>

test.beforeAll(async () => {
	test.setTimeout(timeLimit(90_000))
	const appPort = await freePort()
	provider = await startOidcProvider(await freePort(), `http://localhost:${appPort}/auth/callback`, {
		'grace@oidc.example': 'Grace',
	})
	app = await startAppServer(appPort, {
		OIDC_ISSUER: provider.issuer,
		OIDC_CLIENT_ID: 'hit-me-helpers',
		OIDC_CLIENT_SECRET: 'e2e-client-secret',
	})
})

test.afterAll(async () => {
	await app?.stop()
	await provider?.close()
})

async function signInAtProvider(page: Page, login: string) {
	await page.getByPlaceholder('Enter any login').fill(login)
	await page.getByPlaceholder('and password').fill('anything')
	await page.getByRole('button', { name: 'Sign-in' }).click()
	await page.getByRole('button', { name: 'Continue' }).click()
}

test('signing in through the identity provider creates the account and a session', async ({ page }, testInfo) => {
	const login = testInfo.project.name === 'js' ? 'grace@oidc.example' : `nojs-${Date.now()}@oidc.example`
	await page.goto(`${app.baseURL}/`)
	await page.getByRole('link', { name: 'Sign In' }).click()
	await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
	await signInAtProvider(page, login)
	// A new account agrees to the three consent forms before anything else.
	await expect(page).toHaveURL(`${app.baseURL}/consent?redirectTo=%2Fdashboard`)
	for (const box of await page.getByRole('checkbox').all()) await box.check()
	await page.getByRole('button', { name: 'Continue' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)
	await expect(page.getByText('Consent Recorded')).toBeVisible()
	await expect(page.getByText(testInfo.project.name === 'js' ? 'Welcome, Grace' : `Welcome, ${login}`)).toBeVisible()

	const me = await page.request.get(`${app.baseURL}/api/auth/user`)
	expect(await me.json()).toMatchObject({ email: login, isOwner: false })

	await page.getByRole('button', { name: 'Sign Out' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/auth`)
	expect((await page.request.get(`${app.baseURL}/api/auth/user`)).status()).toBe(401)
})

test('a provider e-mail both sides verified signs into the local account with it; /login hands over to the provider', async ({
	page,
}, testInfo) => {
	const existing = testInfo.project.name === 'js' ? 'verified0@e2e.example' : 'verified1@e2e.example'
	await page.goto(`${app.baseURL}/login?redirectTo=/dashboard`)
	await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
	await signInAtProvider(page, existing)
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)
	await expect(page.getByText(/Welcome, Verified[01]/)).toBeVisible()
})

test('an account whose e-mail this site never verified is not linked silently: its password links it', async ({ page }, testInfo) => {
	const existing = testInfo.project.name === 'js' ? 'person0@e2e.example' : 'person1@e2e.example'
	await page.goto(`${app.baseURL}/api/login`)
	await signInAtProvider(page, existing)
	await expect(page).toHaveURL(`${app.baseURL}/auth/link`)
	await expect(page.getByRole('heading', { name: 'Link your sign-in' })).toBeVisible()
	await expect(page.getByText(`An account with ${existing} already exists here.`)).toBeVisible()
	await expect(page.getByText('this account’s address has not been confirmed here yet')).toBeVisible()
	await expectNoAxeViolations(page, testInfo)
	expect((await page.request.get(`${app.baseURL}/api/auth/user`)).status()).toBe(401)

	await page.getByLabel('Password').fill('Wrong-pass-1!')
	await page.getByRole('button', { name: 'Link and Sign In' }).click()
	await expect(page.getByText('Invalid email or password')).toBeVisible()
	expect((await page.request.get(`${app.baseURL}/api/auth/user`)).status()).toBe(401)

	await page.getByLabel('Password').fill(FIXTURE_PASSWORD)
	await page.getByRole('button', { name: 'Link and Sign In' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)
	await expect(page.getByText(/Welcome, Person[01]/)).toBeVisible()

	// Linked now: the next sign-in through the provider goes straight in.
	await page.getByRole('button', { name: 'Sign Out' }).click()
	await expect(page).toHaveURL(`${app.baseURL}/auth`)
	await page.goto(`${app.baseURL}/api/login`)
	// The provider may remember this browser and send it straight back.
	await page.waitForURL((url) => url.href.startsWith(`${app.baseURL}/dashboard`) || url.href.startsWith(`${provider.issuer}/interaction/`))
	if (page.url().startsWith(provider.issuer)) {
		if (await page.getByPlaceholder('Enter any login').isVisible()) await signInAtProvider(page, existing)
		else await page.getByRole('button', { name: 'Continue' }).click()
	}
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)
})
