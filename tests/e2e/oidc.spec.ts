import type { Page } from '@playwright/test'
import { freePort, startAppServer } from './app-server.ts'
import { expect, test, timeLimit } from './fixtures.ts'
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

test('a verified provider e-mail signs into the local account with that e-mail; /login hands over to the provider', async ({
	page,
}, testInfo) => {
	const existing = testInfo.project.name === 'js' ? 'person0@e2e.example' : 'person1@e2e.example'
	await page.goto(`${app.baseURL}/login?redirectTo=/dashboard`)
	await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
	await signInAtProvider(page, existing)
	await expect(page).toHaveURL(`${app.baseURL}/dashboard`)
	await expect(page.getByText(/Welcome, Person[01]/)).toBeVisible()
})
