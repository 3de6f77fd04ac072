import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db, observeQueries } from '#db/client.ts'
import { emailEvents, emails } from '#db/schema.ts'
import { clickSignature } from '#app/adapters/email-html.ts'
import { deliverEmail, sendEmail, type OutgoingMail } from '#app/adapters/mail.server.ts'
import { env } from '#app/utils/env.server.ts'
import { uniqueEmail } from '#tests/factories.ts'
import { emailMessageStats, isMachineOpen, recordEmailClick, recordEmailOpen } from './email-tracking.server.ts'

const SITE = new URL(env.PUBLIC_URL).origin
const HUMAN = { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Thunderbird/128.0', address: '2001:db8::1' }
const GMAIL = {
	userAgent: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
	address: '66.249.1.1',
}

const newTrackingId = () => randomBytes(16).toString('base64url')
let clock = Date.now()

/** A message row as the mail adapter leaves it; each one newer than the last. */
async function message(status: 'sent' | 'failed' = 'sent', emailType = 'order-confirmation') {
	const createdAt = new Date(++clock)
	const [row] = await db
		.insert(emails)
		.values({
			toAddress: uniqueEmail('tracked'),
			emailType,
			subject: 'Hello',
			textBody: 'Hello',
			status,
			trackingId: newTrackingId(),
			createdAt,
			sentAt: status === 'sent' ? createdAt : null,
		})
		.returning()
	return row!
}

const eventsOf = (emailId: number) => db.select().from(emailEvents).where(eq(emailEvents.emailId, emailId)).orderBy(emailEvents.id)

async function countQueries<T>(run: () => Promise<T>) {
	const queries: string[] = []
	const stop = observeQueries((q) => queries.push(q))
	try {
		return { result: await run(), queries: queries.length }
	} finally {
		stop()
	}
}

const sign = (trackingId: string, target: string) => clickSignature(env.sessionSecrets[0]!, trackingId, target)

describe('isMachineOpen', () => {
	test.each([
		[GMAIL, true],
		[{ userAgent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', address: '98.136.1.1' }, true],
		[{ userAgent: 'Mozilla/5.0', address: '203.0.113.9' }, true],
		[{ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', address: '17.58.1.2' }, true],
		[{ userAgent: null, address: '::ffff:17.0.0.1' }, true],
		[{ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15', address: '18.0.0.1' }, false],
		[HUMAN, false],
		[{ userAgent: null, address: null }, false],
	])('%o is a proxy: %s', (client, machine) => {
		expect(isMachineOpen(client)).toBe(machine)
	})
})

describe('recordEmailOpen', () => {
	test('records one open per kind and minute, in one statement; a reload adds nothing', async () => {
		const row = await message()
		expect((await countQueries(() => recordEmailOpen(row.trackingId, HUMAN))).queries).toBe(1)
		await recordEmailOpen(row.trackingId, HUMAN)
		await recordEmailOpen(row.trackingId, GMAIL)
		await recordEmailOpen(row.trackingId, GMAIL)
		expect((await eventsOf(row.id)).map((e) => [e.type, e.machine, e.url])).toEqual([
			['open', false, null],
			['open', true, null],
		])
	})

	test('an open of one message hides nothing of another', async () => {
		const first = await message()
		const second = await message()
		await recordEmailOpen(first.trackingId, HUMAN)
		await recordEmailOpen(second.trackingId, HUMAN)
		expect(await eventsOf(second.id)).toHaveLength(1)
	})

	test('a minute later, the same kind counts again', async () => {
		const row = await message()
		await recordEmailOpen(row.trackingId, HUMAN)
		await db
			.update(emailEvents)
			.set({ createdAt: new Date(Date.now() - 61_000) })
			.where(eq(emailEvents.emailId, row.id))
		await recordEmailOpen(row.trackingId, HUMAN)
		expect(await eventsOf(row.id)).toHaveLength(2)
	})

	test('an unknown or malformed id records nothing and does not fail', async () => {
		const before = await db.$count(emailEvents)
		await recordEmailOpen(newTrackingId(), HUMAN)
		await recordEmailOpen("x' or 1=1 --", HUMAN)
		expect(await db.$count(emailEvents)).toBe(before)
	})
})

describe('recordEmailClick', () => {
	test('a signed link to the site: the click (path only) is recorded and the target comes back with em', async () => {
		const row = await message()
		const target = `${SITE}/order-tracking?number=HMH-12345678#top`
		const to = await recordEmailClick(row.trackingId, target, sign(row.trackingId, target))
		expect(to).toBe(`${SITE}/order-tracking?number=HMH-12345678&em=${row.trackingId}#top`)
		expect((await eventsOf(row.id)).map((e) => [e.type, e.url, e.machine])).toEqual([['click', '/order-tracking', false]])
	})

	test('a forged, altered or borrowed signature, another site, or a broken target: null and nothing recorded', async () => {
		const row = await message()
		const other = await message()
		const target = `${SITE}/dashboard`
		const foreign = 'https://evil.example/phish'
		const refused = [
			[target, 'A'.repeat(22)],
			[target, sign(row.trackingId, target).slice(0, -1)],
			[`${SITE}/dashboard/giving`, sign(row.trackingId, target)],
			[target, sign(other.trackingId, target)],
			[target, clickSignature('not-our-secret', row.trackingId, target)],
			[foreign, sign(row.trackingId, foreign)],
			[`//evil.example/x`, sign(row.trackingId, '//evil.example/x')],
			['not a url', sign(row.trackingId, 'not a url')],
			[target, null],
			[null, sign(row.trackingId, target)],
		] as const
		for (const [u, s] of refused) expect(await recordEmailClick(row.trackingId, u, s), `${u} ${s}`).toBeNull()
		expect(await eventsOf(row.id)).toEqual([])
	})

	test('links signed before a secret rotation still work', async () => {
		const row = await message()
		const target = `${SITE}/dashboard`
		const signature = sign(row.trackingId, target)
		const saved = env.sessionSecrets
		env.sessionSecrets = ['a-new-secret-that-signs-from-now-on-0123456789', ...saved]
		try {
			expect(await recordEmailClick(row.trackingId, target, signature)).toBe(`${target}?em=${row.trackingId}`)
		} finally {
			env.sessionSecrets = saved
		}
	})

	test('a message deleted since still sends the reader on', async () => {
		const trackingId = newTrackingId()
		const target = `${SITE}/`
		expect(await recordEmailClick(trackingId, target, sign(trackingId, target))).toBe(`${SITE}/?em=${trackingId}`)
	})
})

describe('emailMessageStats', () => {
	test('counts sent messages, people’s opens (a click implies one) and proxy-only opens, in two queries', async () => {
		const before = await emailMessageStats()
		const opened = await message()
		const proxied = await message()
		const clicked = await message()
		const both = await message()
		const unread = await message()
		const failed = await message('failed')
		await recordEmailOpen(opened.trackingId, HUMAN)
		await recordEmailOpen(proxied.trackingId, GMAIL)
		await recordEmailOpen(both.trackingId, GMAIL)
		await recordEmailOpen(both.trackingId, HUMAN)
		await recordEmailOpen(failed.trackingId, HUMAN)
		const target = `${SITE}/dashboard`
		await recordEmailClick(clicked.trackingId, target, sign(clicked.trackingId, target))
		await recordEmailClick(clicked.trackingId, target, sign(clicked.trackingId, target))

		const { result: after, queries } = await countQueries(() => emailMessageStats({ recent: 6 }))
		expect(queries).toBe(2)
		expect(after.totalSent - before.totalSent).toBe(5)
		expect(after.totalOpened - before.totalOpened).toBe(3)
		expect(after.totalClicked - before.totalClicked).toBe(1)
		expect(after.machineOpens - before.machineOpens).toBe(1)
		expect(after.openRate).toBe(Math.round((after.totalOpened / after.totalSent) * 1000) / 10)
		expect(after.clickRate).toBe(Math.round((after.totalClicked / after.totalSent) * 1000) / 10)

		const view = (row: typeof unread, wasOpened: boolean, wasClicked: boolean) => ({
			id: row.id,
			email: row.toAddress,
			emailType: 'order-confirmation',
			sentAt: row.sentAt!.toISOString(),
			opened: wasOpened,
			clicked: wasClicked,
		})
		expect(after.recentEmails.slice(0, 5)).toEqual([
			view(unread, false, false),
			view(both, true, false),
			view(clicked, true, true),
			view(proxied, false, false),
			view(opened, true, false),
		])
		expect(after.recentEmails).toHaveLength(6)
		expect(after.recentEmails.map((e) => e.id)).not.toContain(failed.id)
	})

	test('rates are percentages with one decimal, and 0 when nothing was sent', async () => {
		const stats = await emailMessageStats({ recent: 0 })
		expect(stats.recentEmails).toEqual([])
		for (const rate of [stats.openRate, stats.clickRate]) expect(Number(rate.toFixed(1))).toBe(rate)
		// An empty database is hard to come by in a shared one: the arithmetic is checked on a fresh count instead.
		const sent = await db.$count(emails, eq(emails.status, 'sent'))
		expect(stats.totalSent).toBe(sent)
		if (!sent) expect([stats.openRate, stats.clickRate]).toEqual([0, 0])
	})
})

describe('through the mail adapter', () => {
	test('a delivered message carries the pixel and signed links that lead back to the site', async () => {
		const sent: OutgoingMail[] = []
		const transport = { send: async (mail: OutgoingMail) => void sent.push(mail) }
		const text = `Hello,\n\nYour dashboard: ${SITE}/dashboard\nElsewhere: https://example.org/x`
		const to = uniqueEmail('html')
		const id = await sendEmail({ to, type: 'order-confirmation', subject: 'Welcome', text })
		await deliverEmail(id, transport)
		const [row] = await db.select().from(emails).where(eq(emails.id, id))
		const mail = sent.find((m) => m.to === to)!
		expect(mail.text).toBe(text)
		const html = mail.html!
		expect(html).toContain(`<img src="${SITE}/e/o/${row!.trackingId}" width="1" height="1" alt="" style="display:block;border:0">`)
		const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'))
		expect(hrefs[1]).toBe('https://example.org/x')
		const link = new URL(hrefs[0]!)
		expect(link.pathname).toBe(`/e/c/${row!.trackingId}`)
		expect(await recordEmailClick(row!.trackingId, link.searchParams.get('u'), link.searchParams.get('s'))).toBe(
			`${SITE}/dashboard?em=${row!.trackingId}`,
		)
	})

	test('messages whose links carry secrets link straight to them; a message with its own HTML keeps it', async () => {
		const sent: OutgoingMail[] = []
		const transport = { send: async (mail: OutgoingMail) => void sent.push(mail) }
		const optOut = `${SITE}/notices/opt-out?token=someone.signature`
		const [notice, own] = [uniqueEmail('html'), uniqueEmail('html')]
		await deliverEmail(await sendEmail({ to: notice, type: 'visitor-notice', subject: 'Notice', text: `Stop: ${optOut}` }), transport)
		await deliverEmail(
			await sendEmail({ to: own, type: 'order-confirmation', subject: 'Own', text: 'Plain', html: '<p>Own</p>' }),
			transport,
		)
		const htmlTo = (address: string) => sent.find((m) => m.to === address)!.html
		expect(htmlTo(notice)).toContain(`href="${optOut}"`)
		expect(htmlTo(notice)).not.toContain('/e/c/')
		expect(htmlTo(notice)).toContain('/e/o/')
		expect(htmlTo(own)).toBe('<p>Own</p>')
	})
})
