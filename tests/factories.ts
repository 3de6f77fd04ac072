import { randomUUID } from 'node:crypto'
import { PDFDocument, PDFName, PDFString, type PDFObject } from 'pdf-lib'
import { RouterContextProvider } from 'react-router'
import { db } from '#db/client.ts'
import { users } from '#db/schema.ts'
import { recordAllCurrentConsents } from '#app/domain/consent/consent.server.ts'
import { createStickerCodes } from '#app/domain/qr/codes.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { sessionStorage } from '#app/utils/session.server.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { isDataResult } from '#app/utils/http.ts'

export const TEST_PASSWORD = 'Correct-horse-9!'

let counter = 0
export function uniqueEmail(prefix = 'user') {
	return `${prefix}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 6)}@example.com`
}

// One hash per password for the whole run: each scrypt hash takes 32 MiB and ~50 ms, and a run makes thousands of users.
const hashes = new Map<string, Promise<string>>()
function passwordHashOf(password: string) {
	if (!hashes.has(password)) hashes.set(password, hashPassword(password))
	return hashes.get(password)!
}

/** A user who has agreed to every current consent form, unless `consents: false` (then every page asks first). */
export async function createUser(overrides: Partial<typeof users.$inferInsert> & { password?: string; consents?: boolean } = {}) {
	const { password = TEST_PASSWORD, consents = true, ...values } = overrides
	const email = values.email ?? uniqueEmail()
	const [user] = await db
		.insert(users)
		.values({
			id: randomUUID(),
			username: email.split('@')[0]!.slice(0, 50),
			passwordHash: await passwordHashOf(password),
			firstName: 'Test',
			lastName: 'User',
			...values,
			email,
		})
		.returning()
	if (consents) await recordAllCurrentConsents(user!.id, TEST_CLIENT)
	return user!
}

export const TEST_CLIENT = { ipAddress: '127.0.0.1', userAgent: 'vitest' }

/** A signed session cookie for the user, as the browser would hold it after sign-in. */
export async function sessionCookie(userId: string, extra: Record<string, unknown> = {}) {
	const session = await sessionStorage.getSession()
	session.set('userId', userId)
	for (const [key, value] of Object.entries(extra)) session.set(key, value)
	const setCookie = await sessionStorage.commitSession(session)
	return setCookie.split(';')[0]!
}

export async function createCode() {
	const [code] = await createStickerCodes(1)
	return code!
}

type Handler<A> = (args: A) => unknown
type HandlerArgs = { request: Request; params: Record<string, string>; context: RouterContextProvider; url: URL; pattern: string }

/**
 * Runs a loader or action as the router would; `address` is the TCP peer the server would have seen (by default, one of
 * its own). A thrown Response or data() (a redirect, a 4xx) is returned, as the router answers it; anything else thrown
 * is what the router would answer with a 500, so it fails the test.
 */
export async function call<A>(handler: Handler<A>, request: Request, params: Record<string, string> = {}, address = testAddress()) {
	const context = new RouterContextProvider()
	context.set(clientAddressContext, address)
	try {
		const result = await handler({ request, params, context, url: new URL(request.url), pattern: '' } as HandlerArgs as A)
		return { result, context }
	} catch (thrown) {
		if (thrown instanceof Response || isDataResult(thrown)) return { result: thrown, context }
		throw thrown
	}
}

export function formRequest(path: string, fields: Record<string, string>, init: { cookie?: string; method?: string } = {}) {
	return new Request(new URL(path, 'http://localhost:3000'), {
		method: init.method ?? 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...(init.cookie ? { cookie: init.cookie } : {}) },
		body: new URLSearchParams(fields),
	})
}

export function jsonRequest(path: string, body: unknown, init: { cookie?: string; method?: string } = {}) {
	return new Request(new URL(path, 'http://localhost:3000'), {
		method: init.method ?? 'POST',
		headers: { 'content-type': 'application/json', ...(init.cookie ? { cookie: init.cookie } : {}) },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	})
}

export function getRequest(path: string, cookie?: string) {
	return new Request(new URL(path, 'http://localhost:3000'), { headers: cookie ? { cookie } : {} })
}

/** Status and (when it is one) the data of a `data()` result or a Response. */
export async function unwrap(result: unknown): Promise<{ status: number; body: unknown; headers: Headers }> {
	if (result instanceof Response) {
		const text = await result.text()
		let body: unknown = text
		try {
			body = JSON.parse(text)
		} catch {
			// not JSON
		}
		return { status: result.status, body, headers: result.headers }
	}
	if (isDataResult(result)) return { status: result.init?.status ?? 200, body: result.data, headers: new Headers(result.init?.headers) }
	return { status: 200, body: result, headers: new Headers() }
}

export function cookieFrom(headers: Headers, name: string) {
	const all = headers.getSetCookie()
	const found = all.find((c) => c.startsWith(`${name}=`))
	return found?.split(';')[0]
}

export function multipartRequest(path: string, fields: Record<string, string>, files: Record<string, File> = {}, cookie?: string) {
	const body = new FormData()
	for (const [k, v] of Object.entries(fields)) body.set(k, v)
	for (const [k, f] of Object.entries(files)) body.set(k, f)
	return new Request(new URL(path, 'http://localhost:3000'), { method: 'POST', headers: cookie ? { cookie } : {}, body })
}

/** Smallest real files of each kind, for upload tests. */
export const SAMPLE_FILES = {
	pdf: () =>
		new File([new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')], 'directive.pdf', { type: 'application/pdf' }),
	png: (name = 'card.png') =>
		new File(
			[
				Uint8Array.from(
					Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
				),
			],
			name,
			{ type: 'image/png' },
		),
	executable: () =>
		new File([Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00])], 'report.pdf', { type: 'application/pdf' }),
}

/**
 * A one-page PDF (its text: "Do not resuscitate") that runs scripts: JavaScript on opening (/OpenAction), a document
 * script (/Names /JavaScript), a page-open action (/AA), a link that launches a program and a web link whose next
 * action is a script. Saved with object streams, as most writers do, so none of it is readable in the raw bytes.
 */
export async function pdfWithScripts() {
	const doc = await PDFDocument.create()
	const page = doc.addPage([300, 300])
	page.drawText('Do not resuscitate', { x: 20, y: 150, size: 14 })
	const ctx = doc.context
	const script = (code: string) => ctx.register(ctx.obj({ S: 'JavaScript', JS: PDFString.of(code) }))
	doc.catalog.set(PDFName.of('OpenAction'), script("app.alert('opened')"))
	doc.catalog.set(PDFName.of('Names'), ctx.obj({ JavaScript: ctx.obj({ Names: [PDFString.of('init'), script("app.alert('init')")] }) }))
	page.node.set(PDFName.of('AA'), ctx.obj({ O: script("app.alert('page')") }))
	const link = (rect: number[], action: Record<string, PDFObject | string>) =>
		ctx.register(ctx.obj({ Type: 'Annot', Subtype: 'Link', Rect: rect, Border: [0, 0, 0], A: ctx.obj(action) }))
	page.node.set(
		PDFName.of('Annots'),
		ctx.obj([
			link([0, 0, 50, 50], { S: 'Launch', F: PDFString.of('calc.exe') }),
			link([50, 0, 100, 50], { S: 'URI', URI: PDFString.of('https://example.org/'), Next: script("app.alert('next')") }),
		]),
	)
	return doc.save()
}

let addressCounter = 0
/**
 * A distinct documentation-range address per call, so one test's wrong PINs never count against another's; each in a
 * network of its own (/64), as limits that group IPv6 addresses by network see them.
 */
export function testAddress() {
	addressCounter++
	const hextet = (n: number) => (n & 0xffff).toString(16)
	return `2001:db8:${hextet(process.pid)}:${hextet(addressCounter)}::${hextet((addressCounter >>> 16) + 1)}`
}

/** Someone claiming from an address of their own. */
export function claimant(userId: string) {
	return { userId, address: testAddress() }
}

/** One browser at one address guessing at an account's secret (a password, a second-factor code), never signed in before. */
export const TEST_GUESSER = { address: '192.0.2.1', trustedDevice: false } as const
