import { execFileSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { NO_GOODS, statementLink } from '#app/domain/giving/statements.server.ts'
import * as donationsApi from '#app/routes/api/donations.ts'
import * as statement from '#app/routes/giving/statement.ts'
import * as yourGiving from '#app/routes/giving/your-giving.tsx'
import { get } from '#tests/api.ts'
import { call, createUser, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { uniqueId } from '#tests/stripe.ts'

type Gift = Partial<typeof s.donations.$inferInsert>

/** A gift as the webhook records it: a confirmed one was charged the gift and the fee the donor covered. */
async function gift(values: Gift) {
	const { amountCents = 1500, feeCents = 0, status = 'succeeded' } = values
	const [row] = await db
		.insert(s.donations)
		.values({
			tier: 'advocate',
			paymentIntentId: uniqueId('pi'),
			paidAt: new Date('2026-03-14T12:00:00Z'),
			...values,
			amountCents,
			feeCents,
			status,
			chargedCents: status === 'succeeded' || status === 'refunded' ? amountCents + feeCents : 0,
		})
		.returning()
	return row!
}

/** The PDF's text, read by poppler's pdftotext. */
async function pdfText(response: unknown) {
	if (!(response instanceof Response)) throw new Error(`not a Response: ${JSON.stringify(response)?.slice(0, 300)} ${String(response)}`)
	const answer = response
	expect(answer.headers.get('content-type')).toBe('application/pdf')
	return execFileSync('pdftotext', ['-layout', '-', '-'], { input: Buffer.from(await answer.arrayBuffer()) }).toString('utf8')
}

describe("a donor's giving", () => {
	test('the list, the API and the year-end PDF show only confirmed gifts of that donor, with refunds and fees', async () => {
		const donor = await createUser({ firstName: 'Grace', lastName: 'Hopper' })
		const other = await createUser()
		const cookie = await sessionCookie(donor.id)
		const first = await gift({ userId: donor.id, feeCents: 76 })
		const refunded = await gift({ userId: donor.id, amountCents: 5000, refundedCents: 2000, paidAt: new Date('2026-06-01T12:00:00Z') })
		const lastYear = await gift({ userId: donor.id, amountCents: 500, paidAt: new Date('2025-12-31T23:00:00Z') })
		await gift({ userId: donor.id, status: 'pending', amountCents: 99_900 })
		const theirs = await gift({ userId: other.id, amountCents: 77_700 })

		const api = await get(donationsApi.loader, '/api/donations', cookie)
		expect(api.status).toBe(200)
		expect((api.body as unknown as Array<{ id: number }>).map((g) => g.id)).toEqual([refunded.id, first.id, lastYear.id])
		expect(api.body).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id: refunded.id, refundedCents: 2000, givenCents: 3000, receipt: `D-${refunded.id}` }),
			]),
		)

		const page = await unwrap((await call(yourGiving.loader, getRequest('/dashboard/giving', cookie))).result)
		expect(page.body).toMatchObject({
			years: [2026, 2025],
			gifts: [{ id: refunded.id, refunded: '$20.00' }, { id: first.id, charged: '$15.76', fee: '$0.76' }, { id: lastYear.id }],
		})

		const text = await pdfText(
			(await call(statement.loader, getRequest('/dashboard/giving/statement/2026', cookie), { year: '2026' })).result,
		)
		expect(text).toContain('Giving statement 2026')
		expect(text).toContain('Hit Me Helpers Foundation')
		expect(text).toContain('Grace Hopper')
		expect(text).toContain(`D-${first.id}`)
		expect(text).toContain(`D-${refunded.id}`)
		expect(text).not.toContain(`D-${lastYear.id}`)
		expect(text).not.toContain(`D-${theirs.id}`)
		// $15.76 + $50.00 − $20.00 refunded
		expect(text).toContain('Total given in 2026: $45.76')
		expect(text.replace(/\s+/g, ' ')).toContain(NO_GOODS)
	})

	test("a guest's signed link from the receipt opens their statement; a changed address, year or signature does not", async () => {
		const email = `${uniqueId('guest')}@example.com`
		const mine = await gift({ donorEmail: email })
		const link = new URL(statementLink(email, 2026))
		const open = async (url: URL) => (await call(statement.loader, getRequest(`${url.pathname}${url.search}`))).result
		expect(await pdfText(await open(link))).toContain(`D-${mine.id}`)
		for (const [key, value] of [
			['email', 'someone@example.com'],
			['year', '2025'],
			['sig', 'x'.repeat(43)],
			['year', 'abcd'],
		]) {
			const changed = new URL(link)
			changed.searchParams.set(key!, value!)
			const refused = await unwrap(await open(changed))
			expect(refused, `${key}=${value}`).toMatchObject({ status: 404 })
			// A page a browser shows, in words, with a way on: never the router's JSON.
			expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8')
			expect(refused.body).toMatch(/^<!doctype html><html lang="en">.*<title>This statement link is not valid · Hit Me Helpers<\/title>/)
			expect(refused.body).toContain('<a href="/dashboard/giving">Go to Your Giving</a>')
		}
	})

	test('signed out: the API is a 401, the own statement sends to sign-in; another year format is a 404', async () => {
		expect((await get(donationsApi.loader, '/api/donations')).status).toBe(401)
		const signedOut = await unwrap((await call(statement.loader, getRequest('/dashboard/giving/statement/2026'), { year: '2026' })).result)
		expect(signedOut.status).toBe(302)
		const donor = await createUser()
		const odd = await call(statement.loader, getRequest('/dashboard/giving/statement/26', await sessionCookie(donor.id)), { year: '26' })
		expect((await unwrap(odd.result)).status).toBe(404)
	})
})
