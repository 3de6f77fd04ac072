import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { auditLog, qrRequests } from '#db/schema.ts'
import { deliverSoon, queueEmail, type EmailInput } from '#app/adapters/mail.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import {
	checkCodeCommitments,
	codeIdsIn,
	type CodeProblem,
	fulfilledRequestEntries,
	releaseCancelledOrderCodes,
	REQUEST_FULFILLED_ACTION,
} from './code-commitments.server.ts'
import { qrRequestJson, type QrRequestRow } from '#app/domain/requests/requests.server.ts'
import { env } from '#app/utils/env.server.ts'

export const QR_REQUEST_FILTERS = ['pending', 'fulfilled', 'all'] as const
export type QrRequestFilter = (typeof QR_REQUEST_FILTERS)[number]

/** The audit entry that records a fulfilment and the codes sent with it (there is no table for them). */
export { REQUEST_FULFILLED_ACTION }
export const FULFILMENT_EMAIL_TYPE = 'qr-request-fulfilled'

export const REQUEST_NOT_FOUND = 'QR request not found'
export const ALREADY_FULFILLED = 'This request has already been fulfilled.'
/** Spec 002 §5, assigning QR codes: nothing numeric was entered. */
export const INVALID_CODE_LIST = 'Please enter valid QR code IDs.'

/** A code list longer than this is cut (at a separator) before it is parsed. */
export const MAX_CODE_LIST_CHARS = 2000
const MAX_LIST_LIMIT = 500
/** qr_codes.id and qr_requests.id are int4: anything above is no id, and would make PostgreSQL fail. */
const MAX_ID = 2_147_483_647

const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID

/**
 * The owner's typed list of code ids (spec 002 §5: comma-separated integers, non-numbers dropped): commas, semicolons
 * and white space separate; anything that is not a whole number in id range is dropped; repeats count once; order kept.
 * An empty answer is the caller's 'Invalid Input' / INVALID_CODE_LIST.
 */
export function parseCodeList(text: string): number[] {
	let bounded = String(text ?? '')
	if (bounded.length > MAX_CODE_LIST_CHARS) {
		// Cut at the last separator inside the limit, so no number is cut in two.
		const cut = bounded.slice(0, MAX_CODE_LIST_CHARS + 1)
		bounded = cut.slice(0, Math.max(0, cut.search(/[\s,;][^\s,;]*$/)))
	}
	const ids = new Set<number>()
	for (const part of bounded.split(/[\s,;]+/)) {
		if (!/^\d{1,10}$/.test(part)) continue
		const id = Number(part)
		if (isId(id)) ids.add(id)
	}
	return [...ids]
}

export type AdminQrRequest = ReturnType<typeof qrRequestJson> & { fulfilledAt: Date | null; qrCodeIds: number[] }

function adminJson(row: QrRequestRow, qrCodeIds: number[]): AdminQrRequest {
	return { ...qrRequestJson(row), fulfilledAt: row.fulfilledAt, qrCodeIds }
}

/**
 * GET /api/admin/qr-requests and the qr-management tab's queue: pending requests first, each group newest first
 * (or only one status), at most `limit` (1 to 500). Each row is the spec's request shape plus when it was fulfilled
 * and the codes sent with it.
 */
export async function listQrRequests({ status = 'all', limit = 100 }: { status?: QrRequestFilter; limit?: number } = {}) {
	const rows = await db
		.select()
		.from(qrRequests)
		.where(status === 'all' ? undefined : eq(qrRequests.requestStatus, status))
		.orderBy(sql`(${qrRequests.requestStatus} = 'pending') desc`, desc(qrRequests.createdAt), desc(qrRequests.id))
		.limit(clampLimit(limit))
	const sent = await codesSentWith(
		db,
		rows.filter((row) => row.requestStatus === 'fulfilled').map((row) => row.id),
	)
	return rows.map((row) => adminJson(row, sent.get(row.id) ?? []))
}

function clampLimit(limit: number) {
	return Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_LIST_LIMIT) : 100
}

/** The codes each fulfilled request went out with, from its audit entry. One query. */
async function codesSentWith(tx: Executor, requestIds: number[]) {
	const sent = new Map<number, number[]>()
	if (!requestIds.length) return sent
	const entries = await fulfilledRequestEntries(
		tx,
		and(eq(auditLog.subjectType, 'qr_request'), inArray(auditLog.subjectId, requestIds.map(String))),
	)
	for (const entry of entries) sent.set(Number(entry.subjectId), codeIdsIn(entry.details))
	return sent
}

export type FulfilOptions = {
	/** Codes mailed with the request: existing, unclaimed, active, sent with nothing else; at most its quantity. */
	qrCodeIds?: number[]
	/** E-mail the requester that the codes are on their way. */
	notify?: boolean
	/** The owner doing it, for the audit entry. */
	actorUserId?: string | null
}

/**
 * PUT /api/admin/qr-request/{id}/fulfill (spec 002 §4: pending → fulfilled, offered only for pending). Optionally
 * records the codes sent with it (in the audit entry, which is also where later fulfilments and order assignments look to refuse a code
 * already sent) and queues the requester's e-mail in the same transaction; it is delivered after the commit.
 * Refusals (404 unknown; 409 already fulfilled or a code that cannot go; 400 a bad list) change nothing.
 */
export async function fulfillQrRequest(id: number, options: FulfilOptions = {}) {
	if (!isId(id)) throw new DomainError(404, REQUEST_NOT_FOUND)
	const codeIds = checkedCodeIds(options.qrCodeIds)
	const result = await db.transaction(async (tx) => {
		// Locked: two owners' tabs fulfilling the same request at once fulfil it once.
		const [request] = await tx.select().from(qrRequests).where(eq(qrRequests.id, id)).for('update')
		if (!request) throw new DomainError(404, REQUEST_NOT_FOUND)
		if (request.requestStatus !== 'pending') throw new DomainError(409, ALREADY_FULFILLED)
		if (codeIds.length > request.quantity)
			throw new DomainError(
				400,
				`This request is for ${plural(request.quantity, 'QR code')}: assign at most ${request.quantity}.`,
				'qrCodeIds',
			)
		await requireAssignable(tx, codeIds)
		const [fulfilled] = await tx
			.update(qrRequests)
			.set({ requestStatus: 'fulfilled', fulfilledAt: new Date() })
			.where(eq(qrRequests.id, id))
			.returning()
		await tx.insert(auditLog).values({
			actorUserId: options.actorUserId ?? null,
			action: REQUEST_FULFILLED_ACTION,
			subjectType: 'qr_request',
			subjectId: String(id),
			details: { qrCodeIds: codeIds, notified: Boolean(options.notify) },
		})
		const emailId = options.notify ? await queueEmail(tx, fulfilmentEmail(fulfilled!, codeIds)) : null
		return { request: adminJson(fulfilled!, codeIds), emailId }
	})
	if (result.emailId !== null) deliverSoon()
	return { request: result.request, qrCodeIds: codeIds, notified: result.emailId !== null }
}

function checkedCodeIds(ids: number[] | undefined) {
	if (ids === undefined) return []
	if (!Array.isArray(ids) || !ids.every(isId)) throw new DomainError(400, INVALID_CODE_LIST, 'qrCodeIds')
	// Ascending: two transactions lock shared codes in the same order, so they never deadlock.
	return [...new Set(ids)].sort((a, b) => a - b)
}

/** The refusal for each problem checkCodeCommitments reports; the first one (lowest id) is the answer. */
function problemMessage(problem: CodeProblem) {
	const { codeId } = problem
	switch (problem.reason) {
		case 'missing':
			return `QR code ${codeId} does not exist.`
		case 'claimed':
		case 'not-shoppers':
			return `QR code ${codeId} has already been claimed.`
		case 'inactive':
			return `QR code ${codeId} is inactive.`
		case 'ordered':
			return `QR code ${codeId} is already assigned to an order.`
		case 'sent':
			return `QR code ${codeId} was already sent with free QR request #${problem.requestId}.`
	}
}

/**
 * Each code must exist, be unclaimed and active, and not be promised elsewhere (an order that is not cancelled, or a
 * request fulfilled before): the shared rule, with its locks (code-commitments.server.ts). A code still listed on a
 * cancelled order is taken off it, as assigning it to another order would.
 */
async function requireAssignable(tx: Executor, ids: number[]) {
	if (!ids.length) return
	const { problems, onCancelledOrders } = await checkCodeCommitments(tx, ids)
	if (problems[0]) throw new DomainError(409, problemMessage(problems[0]), 'qrCodeIds')
	await releaseCancelledOrderCodes(tx, onCancelledOrders)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** Tells the requester what is coming and how to activate it: the address and code numbers, never a PIN or anything medical. */
function fulfilmentEmail(request: QrRequestRow, codeIds: number[]): EmailInput {
	const site = env.PUBLIC_URL.replace(/\/+$/, '')
	const address = [request.fullName, request.streetAddress, `${request.city}, ${request.state} ${request.postalCode}`, request.country]
	return {
		to: request.email,
		type: FULFILMENT_EMAIL_TYPE,
		subject: 'Your free QR codes are on their way',
		userId: request.userId ?? undefined,
		text: [
			`Hello ${request.fullName},`,
			`Your request (number ${request.id}) for ${plural(request.quantity, 'free emergency medical QR code')} has been fulfilled. ${request.quantity === 1 ? 'It is' : 'They are'} in the mail to:`,
			address.join('\n'),
			...(codeIds.length
				? [`Code number${codeIds.length === 1 ? '' : 's'} in your envelope: ${codeIds.map((n) => `#${n}`).join(', ')}.`]
				: []),
			[
				'To activate a code when it arrives, use the PIN printed beside it:',
				`- visit ${site}/claim/ followed by the PIN (for example ${site}/claim/YOUR-PIN), or`,
				`- sign in at ${site}/dashboard/qr-codes and enter the PIN there.`,
				'Until it is activated, scanning the code only shows how to activate it; afterwards it shows the emergency information you choose to share.',
			].join('\n'),
			`Questions? Write to ${env.SUPPORT_EMAIL}. We will never ask for your password or PIN by e-mail.`,
			'Hit Me Helpers Foundation',
		].join('\n\n'),
	}
}
