import { createHmac, timingSafeEqual } from 'node:crypto'
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm'
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import { heavyDownload } from '#app/domain/heavy-work.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { env } from '#app/utils/env.server.ts'
import { db } from '#db/client.ts'
import { donations } from '#db/schema.ts'
import { formatDollars } from './amounts.ts'

export const NO_GOODS = 'No goods or services were provided in exchange for these contributions.'

/** Gifts Stripe confirmed (refunded ones too, with what was refunded), newest first. */
const COUNTED = ['succeeded', 'refunded'] as const

export type GiftLine = {
	id: number
	paidAt: Date
	amountCents: number
	feeCents: number
	refundedCents: number
	status: string
	tier: string
}

const lineColumns = {
	id: donations.id,
	paidAt: sql<Date>`coalesce(${donations.paidAt}, ${donations.createdAt})`.mapWith((v: string | Date) => new Date(v)),
	amountCents: donations.amountCents,
	feeCents: donations.feeCents,
	refundedCents: donations.refundedCents,
	status: donations.status,
	tier: donations.tier,
}

/** A signed-in donor's gifts. */
export function giftsOf(userId: string): Promise<GiftLine[]> {
	return db
		.select(lineColumns)
		.from(donations)
		.where(and(eq(donations.userId, userId), inArray(donations.status, COUNTED)))
		.orderBy(desc(donations.paidAt), desc(donations.id))
}

/** One calendar year's gifts (UTC) of a donor, by account or, for a guest's signed link, by the receipt's address. */
export function giftsInYear(donor: { userId: string } | { email: string }, year: number): Promise<GiftLine[]> {
	const who = 'userId' in donor ? eq(donations.userId, donor.userId) : sql`lower(${donations.donorEmail}) = ${donor.email.toLowerCase()}`
	const paid = sql`coalesce(${donations.paidAt}, ${donations.createdAt})`
	return db
		.select(lineColumns)
		.from(donations)
		.where(
			and(
				who,
				inArray(donations.status, COUNTED),
				gte(paid, sql`${new Date(Date.UTC(year, 0, 1)).toISOString()}::timestamptz`),
				lt(paid, sql`${new Date(Date.UTC(year + 1, 0, 1)).toISOString()}::timestamptz`),
			),
		)
		.orderBy(paid, donations.id)
}

/** What counts for the year: what was given (fees the donor covered included), less what was refunded. */
export const givenCents = (line: GiftLine) => line.amountCents + line.feeCents - line.refundedCents

/** Helvetica writes only WinAnsi: anything else in a name becomes '?', never an error. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?')

/** The year-end statement a donor can file: every confirmed gift of the year, the total, and the foundation's details. */
export function yearStatementPdf(donor: { name: string | null; email: string }, year: number, lines: GiftLine[]) {
	return heavyDownload(`statement:${donor.email.toLowerCase()}`, () => statementPdf(donor, year, lines))
}

async function statementPdf(donor: { name: string | null; email: string }, year: number, lines: GiftLine[]) {
	const pdf = await PDFDocument.create()
	pdf.setTitle(`${env.FOUNDATION_LEGAL_NAME}: giving statement ${year}`)
	pdf.setAuthor(env.FOUNDATION_LEGAL_NAME)
	const font = await pdf.embedFont(StandardFonts.Helvetica)
	const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
	let page = pdf.addPage([612, 792])
	let y = 740
	const write = (text: string, { size = 11, x = 56, face = font } = {}) => {
		if (y < 72) {
			page = pdf.addPage([612, 792])
			y = 740
		}
		page.drawText(printable(text), { x, y, size, font: face, color: rgb(0.1, 0.1, 0.1) })
	}
	const next = (gap = 16) => {
		y -= gap
	}
	write(`Giving statement ${year}`, { size: 20, face: bold })
	next(28)
	write(env.FOUNDATION_LEGAL_NAME, { face: bold })
	next()
	if (env.FOUNDATION_TAX_ID) {
		write(`Tax ID: ${env.FOUNDATION_TAX_ID}`)
		next()
	}
	write(`Prepared for: ${donor.name ? `${donor.name} <${donor.email}>` : donor.email}`)
	next(28)
	write('Date', { face: bold })
	write('Receipt', { x: 230, face: bold })
	write('Amount', { x: 340, face: bold })
	write('Refunded', { x: 450, face: bold })
	next(18)
	for (const line of lines) {
		write(formatDate(line.paidAt))
		write(`D-${line.id}`, { x: 230 })
		write(formatDollars(line.amountCents + line.feeCents), { x: 340 })
		write(line.refundedCents ? formatDollars(line.refundedCents) : '-', { x: 450 })
		next()
	}
	if (!lines.length) {
		write(`No confirmed gifts in ${year}.`)
		next()
	}
	next(8)
	write(`Total given in ${year}: ${formatDollars(lines.reduce((sum, line) => sum + givenCents(line), 0))}`, { face: bold })
	next(28)
	write(NO_GOODS)
	next()
	write(`Questions? Write to ${env.SUPPORT_EMAIL}.`)
	return pdf.save()
}

/** A guest's statement link is signed, so only the receipt's recipient can open it. */
const sign = (secret: string, email: string, year: number) =>
	createHmac('sha256', secret).update(`statement:${email.toLowerCase()}:${year}`).digest('base64url')

export function statementLink(email: string, year: number) {
	const url = new URL('/giving/statement', env.PUBLIC_URL)
	url.search = new URLSearchParams({ email, year: String(year), sig: sign(env.sessionSecrets[0]!, email, year) }).toString()
	return url.toString()
}

export function verifyStatementLink(email: string, year: number, sig: string) {
	const given = Buffer.from(sig)
	// Any of the session secrets: a link mailed before a rotation still opens.
	return env.sessionSecrets.some((secret) => {
		const expected = Buffer.from(sign(secret, email, year))
		return expected.length === given.length && timingSafeEqual(expected, given)
	})
}
