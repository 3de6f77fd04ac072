import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { emailEvents, emails } from '#db/schema.ts'
import { clickSignature } from '#app/adapters/email-html.ts'
import { env } from '#app/utils/env.server.ts'
import { call, getRequest, uniqueEmail, unwrap } from '#tests/factories.ts'
import * as click from './email-click.ts'
import * as open from './email-open.ts'

const SITE = new URL(env.PUBLIC_URL).origin
const newTrackingId = () => randomBytes(16).toString('base64url')

async function sentMessage() {
	const [row] = await db
		.insert(emails)
		.values({
			toAddress: uniqueEmail('links'),
			emailType: 'order-confirmation',
			subject: 'Hello',
			textBody: 'Hello',
			status: 'sent',
			trackingId: newTrackingId(),
			sentAt: new Date(),
		})
		.returning()
	return row!
}

const eventsOf = (emailId: number) => db.select().from(emailEvents).where(eq(emailEvents.emailId, emailId))

async function pixel(trackingId: string, init: { userAgent?: string; address?: string } = {}) {
	const request = getRequest(`/e/o/${encodeURIComponent(trackingId)}`)
	if (init.userAgent) request.headers.set('user-agent', init.userAgent)
	const { result } = await call(open.loader, request, { trackingId }, init.address)
	return result as Response
}

async function follow(trackingId: string, u: string, s: string) {
	const request = getRequest(`/e/c/${trackingId}?${new URLSearchParams({ u, s })}`)
	const { result } = await call(click.loader, request, { trackingId })
	return result as Response
}

async function expectPixel(response: Response) {
	expect(response.status).toBe(200)
	expect(response.headers.get('content-type')).toBe('image/gif')
	expect(response.headers.get('cache-control')).toBe('no-store, private')
	const bytes = Buffer.from(await response.arrayBuffer())
	expect(bytes).toHaveLength(43)
	expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a')
}

describe('GET /e/o/:trackingId', () => {
	test('an unknown or malformed id still gets the GIF, and nothing is recorded', async () => {
		const before = await db.$count(emailEvents)
		await expectPixel(await pixel(newTrackingId()))
		await expectPixel(await pixel('short'))
		await expectPixel(await pixel('a'.repeat(65)))
		await expectPixel(await pixel("x'; drop table emails; --"))
		expect(await db.$count(emailEvents)).toBe(before)
	})

	test('records the open, a person’s or a privacy proxy’s by the client address', async () => {
		const row = await sentMessage()
		await expectPixel(await pixel(row.trackingId, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Thunderbird/128.0' }))
		await expectPixel(await pixel(row.trackingId, { userAgent: 'Mozilla/5.0 (Macintosh)', address: '17.58.0.9' }))
		const events = await eventsOf(row.id)
		expect(events.map((e) => [e.type, e.machine]).sort()).toEqual([
			['open', false],
			['open', true],
		])
	})

	test('other methods are not allowed', async () => {
		const request = new Request(`${SITE}/e/o/${newTrackingId()}`, { method: 'POST' })
		const { result } = await call(open.action, request, { trackingId: newTrackingId() })
		expect((await unwrap(result)).status).toBe(405)
	})
})

describe('GET /e/c/:trackingId', () => {
	test('a signed link to the site: a 302 to the target with em, and the click recorded', async () => {
		const row = await sentMessage()
		const target = `${SITE}/order-tracking?number=HMH-ABCDEFGH`
		const response = await follow(row.trackingId, target, clickSignature(env.sessionSecrets[0]!, row.trackingId, target))
		expect(response.status).toBe(302)
		expect(response.headers.get('location')).toBe(`${target}&em=${row.trackingId}`)
		expect((await eventsOf(row.id)).map((e) => [e.type, e.url])).toEqual([['click', '/order-tracking']])
	})

	test('a bad signature or another site: a 400 page that says so and links home, never a redirect', async () => {
		const row = await sentMessage()
		const foreign = 'https://evil.example/'
		for (const [u, s] of [
			[`${SITE}/dashboard`, 'forged-signature-00000'],
			[foreign, clickSignature(env.sessionSecrets[0]!, row.trackingId, foreign)],
		] as const) {
			const response = await follow(row.trackingId, u, s)
			expect(response.status).toBe(400)
			expect(response.headers.get('location')).toBeNull()
			expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
			const page = await response.text()
			expect(page).toContain('<h1>This link is not valid</h1>')
			expect(page).toContain('<a href="/">Go to the home page</a>')
		}
		expect(await eventsOf(row.id)).toEqual([])
	})
})
