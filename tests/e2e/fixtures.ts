import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { expect, test as base, type Page, type TestInfo } from '@playwright/test'

type Fixtures = {
	codes: Array<{ pin: string; token: string; scanUrl: string }>
	users: Array<{ email: string; firstName: string; password: string }>
	usersWithoutConsents: Fixtures['users']
	legacyUsers: Fixtures['users']
}

let cached: Fixtures | null = null
function fixtures(): Fixtures {
	cached ??= JSON.parse(readFileSync(process.env.E2E_FIXTURES ?? 'tests/e2e/.fixtures.json', 'utf8')) as Fixtures
	return cached
}

/** Each test names the slots it uses; the two projects get different rows, so no test consumes another's. */
function pick<T>(list: T[], testInfo: TestInfo, slot: number) {
	const row = list[slot * 2 + (testInfo.project.name === 'no-js' ? 1 : 0)]
	if (!row) throw new Error(`No fixture row for slot ${slot}`)
	return row
}

export const test = base.extend<{
	fixtureUser: (slot: number) => Fixtures['users'][number]
	fixtureCode: (slot: number) => Fixtures['codes'][number]
	/** An account that has not agreed to any consent form yet. */
	fixtureUserWithoutConsents: (slot: number) => Fixtures['users'][number]
	/** Grandfathered accounts, which may generate their own QR codes. */
	fixtureLegacyUser: (slot: number) => Fixtures['users'][number]
	hasJs: boolean
}>({
	fixtureUser: async ({}, use, testInfo) => use((slot) => pick(fixtures().users, testInfo, slot)),
	fixtureCode: async ({}, use, testInfo) => use((slot) => pick(fixtures().codes, testInfo, slot)),
	fixtureUserWithoutConsents: async ({}, use, testInfo) => use((slot) => pick(fixtures().usersWithoutConsents, testInfo, slot)),
	fixtureLegacyUser: async ({}, use, testInfo) => use((slot) => pick(fixtures().legacyUsers, testInfo, slot)),
	hasJs: async ({}, use, testInfo) => use(testInfo.project.name !== 'no-js'),
})

export { expect }

export async function signIn(page: Page, user: { email: string; password: string }) {
	await page.goto('/login')
	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password').fill(user.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
}

/** axe runs where JavaScript runs (the page as most people get it). */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo) {
	if (testInfo.project.name === 'no-js') return
	const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze()
	expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}
