import { appendFileSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, request as http, test as base, type APIRequestContext, type APIResponse, type Page, type TestInfo } from '@playwright/test'
import { baseURL, fixturesFile, typedSecretsFile } from '../playwright.config.ts'

export type Person = { email: string; firstName: string; password: string }
type Sticker = { pin: string; token: string; scanUrl: string }
type Pools = { codes: Sticker[]; legacyUsers: Person[] }

const FIXTURES = fixturesFile
let pools: Pools | null = null
const readPools = () => (pools ??= JSON.parse(readFileSync(FIXTURES, 'utf8')) as Pools)

/**
 * Rows made before the server started (printed stickers, grandfathered accounts) that no API creates: each is handed
 * to one test only, whichever worker or project asks first (an exclusive file per row, made by the first to ask).
 */
function takeFromPool<T>(pool: keyof Pools, testInfo: TestInfo): T {
	const claims = `${FIXTURES}.taken`
	mkdirSync(claims, { recursive: true })
	const rows = readPools()[pool] as T[]
	for (let i = 0; i < rows.length; i++) {
		try {
			closeSync(openSync(join(claims, `${pool}-${i}`), 'wx'))
			return rows[i]!
		} catch {
			// taken by another test
		}
	}
	throw new Error(`${testInfo.title}: every one of the ${rows.length} ${pool} is taken`)
}

let people = 0
/** A new account, through the same calls a person's browser makes: sign up, sign in, agree to the forms, give a name. */
async function signUp(consents: boolean, workerIndex: number): Promise<Person & { api: APIRequestContext }> {
	const n = `${Date.now().toString(36)}${workerIndex}${(people++).toString(36)}`
	const person = { email: `person-${n}@e2e.example`, firstName: `Person${n}`, password: 'Fixture-pass-1!' }
	const api = await http.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } })
	const must = async (what: string, answer: Promise<APIResponse>) => {
		const response = await answer
		if (!response.ok()) throw new Error(`${what} answered ${response.status()}: ${await response.text()}`)
		return response
	}
	await must(
		'sign up',
		api.post('/api/signup', { data: { username: `p${n}`, email: person.email, password: person.password, consent: true } }),
	)
	const signedIn = await api.post('/login', { form: { email: person.email, password: person.password }, maxRedirects: 0 })
	if (signedIn.status() !== 302) throw new Error(`sign in answered ${signedIn.status()}`)
	if (consents) {
		const texts = (await (await must('consent texts', api.get('/api/consent/texts'))).json()) as Record<string, string>
		for (const consentType of Object.keys(texts))
			await must(`consent ${consentType}`, api.post('/api/consent', { data: { consentType, agreed: true } }))
	}
	await must('name', api.put('/api/user/profile', { data: { firstName: person.firstName, lastName: 'Example' } }))
	return { ...person, api }
}

export const test = base.extend<{
	/** A new account for this test (agreed to every consent form unless `consents: false`), deleted when it ends. */
	person: (options?: { consents?: boolean }) => Promise<Person>
	/** A printed sticker no other test uses: its PIN and scan address. */
	sticker: () => Sticker
	/** A grandfathered account no other test uses (they may generate their own QR codes). */
	legacyPerson: () => Person
	hasJs: boolean
	closeAxeCopy: void
}>({
	person: async ({}, use, testInfo) => {
		const made: APIRequestContext[] = []
		await use(async ({ consents = true } = {}) => {
			const { api, ...person } = await signUp(consents, testInfo.workerIndex)
			made.push(api)
			return person
		})
		// The journey may have deleted the account already (or changed its password): the session still can.
		for (const api of made) {
			await api.delete('/api/account').catch(() => undefined)
			await api.dispose()
		}
	},
	sticker: async ({}, use, testInfo) => use(() => takeFromPool<Sticker>('codes', testInfo)),
	legacyPerson: async ({}, use, testInfo) => use(() => takeFromPool<Person>('legacyUsers', testInfo)),
	hasJs: async ({}, use, testInfo) => use(testInfo.project.name !== 'no-js'),
	// A page shown at a data request's address (…/x.data) comes from a redirect built from the request's own URL.
	page: async ({ page }, use) => {
		const dataAddresses: string[] = []
		page.on('framenavigated', (frame) => {
			if (frame === page.mainFrame() && new URL(frame.url()).pathname.endsWith('.data')) dataAddresses.push(frame.url())
		})
		await use(page)
		expect(dataAddresses, 'pages shown at a data address').toEqual([])
	},
	closeAxeCopy: [
		async ({}, use, testInfo) => {
			await use()
			await axeCopies.get(testInfo.testId)?.context().close()
			axeCopies.delete(testInfo.testId)
		},
		{ auto: true },
	],
})

export { expect }

/** A secret a journey made or typed (a two-factor key or code): the end-of-run log check looks for it too. */
export function rememberSecret(value: string) {
	appendFileSync(typedSecretsFile, `${value}\n`)
}

export async function signIn(page: Page, user: { email: string; password: string }) {
	await page.goto('/login')
	await page.getByLabel('Email').fill(user.email)
	await page.getByLabel('Password').fill(user.password)
	await page.getByRole('button', { name: 'Sign In' }).click()
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * axe on the page as it stands. axe is a script, so for a page without JavaScript it checks a copy: the same document
 * (its scripts removed, its <noscript> shown) served at the same address to a page that may run axe, with the same
 * cookies and viewport.
 */
export async function expectNoAxeViolations(page: Page, testInfo: TestInfo) {
	await expectNoViolationsIn(testInfo.project.name === 'no-js' ? await scriptedCopy(page, testInfo) : page)
}

/**
 * axe at each width in turn, the page resized where it stands (not loaded again): a phone's 375 px, then 320 px
 * (WCAG 1.4.10's reflow width). Without JavaScript the copy is made once and resized with it.
 */
export async function expectNoAxeViolationsAt(page: Page, testInfo: TestInfo, widths: readonly number[]) {
	const checked = testInfo.project.name === 'no-js' ? await scriptedCopy(page, testInfo) : page
	const height = page.viewportSize()?.height ?? 800
	for (const width of widths) {
		await page.setViewportSize({ width, height })
		await checked.setViewportSize({ width, height })
		await expectNoViolationsIn(checked, `at ${width} px`)
	}
}

/** WCAG 1.4.12's text spacing, as a reader's own style sheet would set it. */
const TEXT_SPACING =
	'* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important } p { margin-bottom: 2em !important }'

/**
 * With WCAG 1.4.12's text spacing added, nothing sticks out past the page's right edge (what a table or a row of tabs
 * scrolls inside its own region is not the page's). Names what sticks out, if anything.
 */
export async function expectNoSidewaysScroll(page: Page, label: string) {
	// Added by the test's own script (addStyleTag waits for an onload that a page without JavaScript never fires).
	await page.evaluate((css) => document.head.append(Object.assign(document.createElement('style'), { textContent: css })), TEXT_SPACING)
	const sticking = await page.evaluate(() => {
		const width = document.documentElement.clientWidth
		const clipped = (el: Element) => {
			for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true
			return false
		}
		const out = [...document.body.querySelectorAll('*')].filter((el) => {
			const box = el.getBoundingClientRect()
			return box.width > 0 && box.right > width + 0.5 && !clipped(el)
		})
		const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`
		return { overflow: document.documentElement.scrollWidth - width, out: out.slice(0, 5).map(name) }
	})
	expect(sticking, `${label}: wider than the screen with WCAG text spacing`).toEqual({ overflow: 0, out: [] })
}

/** The no-js page's document in a page that may run axe (see expectNoAxeViolations). */
async function scriptedCopy(page: Page, testInfo: TestInfo) {
	const html = (await page.content())
		.replace(/<script\b[\s\S]*?<\/script>/gi, '')
		.replace(/<link[^>]*rel="modulepreload"[^>]*>/gi, '')
		.replace(/<(\/?)noscript>/gi, '<$1div>')
	const copy = await axeCopyOf(page, testInfo)
	await copy.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }), { times: 1 })
	await copy.goto(page.url())
	return copy
}

/** One scripted page per journey, reused for each check (a browser context costs seconds on a busy machine). */
const axeCopies = new Map<string, Page>()
async function axeCopyOf(page: Page, testInfo: TestInfo) {
	let copy = axeCopies.get(testInfo.testId)
	if (!copy) {
		copy = await (await page.context().browser()!.newContext({ javaScriptEnabled: true })).newPage()
		axeCopies.set(testInfo.testId, copy)
	}
	await copy.context().clearCookies()
	await copy.context().addCookies(await page.context().cookies())
	await copy.setViewportSize(page.viewportSize()!)
	return copy
}

// axe in the page itself ("legacy" mode): the pages have no frames, and the default opens a blank page per check to
// merge frames' results, which made the axe sweep a third slower. Only violations are gathered in full (the sweep: 154
// s to 130 s). options() replaces what withTags() set, so it comes first.
async function expectNoViolationsIn(page: Page, where?: string) {
	const results = await new AxeBuilder({ page })
		.options({ resultTypes: ['violations'] })
		.withTags(AXE_TAGS)
		.setLegacyMode(true)
		.analyze()
	expect(
		results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
		where,
	).toEqual([])
}

/** Where focus is: inside the open dialog, or nowhere (the document itself), never on the page behind it. */
export const focusPlace = (page: Page) =>
	page.evaluate(() => {
		const active = document.activeElement
		if (!active || active === document.body || active === document.documentElement) return 'nowhere'
		return active.closest('[role=dialog]') ? 'dialog' : `page: ${active.outerHTML.slice(0, 80)}`
	})

/**
 * On the owner panel's token form (Access Denied, Admin Access): a wrong token, sent from the keyboard, is said beside
 * the field, which has the focus again, and the title starts with "Error:".
 */
export async function expectWrongTokenAnnounced(page: Page) {
	const token = page.getByLabel('Admin token')
	await token.fill('not-the-token')
	await token.press('Tab')
	await page.keyboard.press('Enter')
	await expect(token).toHaveAccessibleDescription('This admin token is not valid.')
	await expect(token).toHaveAttribute('aria-invalid', 'true')
	await expect(token).toBeFocused()
	await expect(page).toHaveTitle(/^Error: Owner panel · /)
}

/** The PIN card of a signed-in page: the PIN is validated, then /claim/{pin} asks whose information the code shows. */
export async function claimOnDashboard(page: Page, pin: string, profile?: string) {
	await page.getByLabel('PIN', { exact: true }).fill(pin)
	await page.getByRole('button', { name: 'Claim Your QR Code' }).click()
	await expect(page).toHaveURL(new RegExp(`/claim/${pin.toUpperCase()}$`))
	if (profile) await page.getByLabel('Whose information will this code show?').selectOption({ label: profile })
	await page.getByRole('button', { name: 'Claim QR Code' }).click()
	await expect(page.getByText('This QR code is linked to your account.')).toBeVisible()
}

export const SMALL_STICKER = 'Small Medical QR Sticker (2x2 in)'

/** Puts the small sticker in the cart from the shop, as it comes (red, circular). */
export async function addSmallSticker(page: Page) {
	await page.goto('/shop')
	const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: SMALL_STICKER }) })
	await card.getByRole('button', { name: 'Add to Cart' }).click()
	await expect(page.getByText(`${SMALL_STICKER} was added to your cart.`).last()).toBeVisible()
}

/** A journey's own time limit, doubled under CI as the config's are: the shared machine can run several times slower. */
export const timeLimit = (ms: number) => (process.env.CI ? ms * 2 : ms)
