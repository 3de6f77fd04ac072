import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import { type Executor } from '#db/client.ts'
import { auditLog, orderAssignedCodes, orders, qrCodes } from '#db/schema.ts'

/**
 * The one rule for "this printed code is already promised elsewhere". Unclaimed sticker codes go out in two ways: with
 * a shop order (order_assigned_codes, one order per code) or mailed with a free QR request (the request's
 * 'qr-request.fulfilled' audit entry, details.qrCodeIds). assignQrCodes (orders.server.ts) and fulfillQrRequest
 * (requests-queue.server.ts) both ask checkCodeCommitments, each wording the problems in its own messages.
 *
 * One code is different: the one the shopper chose at checkout (orders.selected_qr_code_id), which is already theirs.
 * Their order may take it while it is still theirs; claimed, inactive or mailed to them earlier is no reason against it,
 * but another order still holding it is (a code goes out with one order only).
 */

/** The audit entry that records a fulfilled free QR request and the codes sent with it (there is no table for them). */
export const REQUEST_FULFILLED_ACTION = 'qr-request.fulfilled'

export type CodeProblem =
	/** not-shoppers: the order's chosen code no longer belongs to the account that placed the order. */
	| { codeId: number; reason: 'missing' | 'claimed' | 'inactive' | 'not-shoppers' }
	/** On an order that is not cancelled (a cancelled order's codes are free again). */
	| { codeId: number; reason: 'ordered'; orderId: string; orderNumber: string }
	/** Mailed with a free QR request already. */
	| { codeId: number; reason: 'sent'; requestId: string }

export type CodeCommitments = {
	/** Codes that can be promised now, ascending. */
	free: number[]
	/** Of `free`, those still recorded on a cancelled order: releaseCancelledOrderCodes before promising them. */
	onCancelledOrders: number[]
	/** Codes already on `forOrderId`: neither free nor a problem, the caller leaves them as they are. */
	alreadyOnOrder: number[]
	/** Ascending by code; empty when every code can go. */
	problems: CodeProblem[]
}

/** The code an order's shopper chose, and the account that placed the order (null once it is deleted). */
export type ShopperChoice = { codeId: number; shopperId: string | null }

/** The order holding a code (order_assigned_codes has one row per code at most). */
export type CodeHolder = { orderId: string; orderNumber: string; status: string }

export type CodeVerdict = { kind: 'free'; onCancelledOrder: boolean } | { kind: 'on-order' } | { kind: 'problem'; problem: CodeProblem }

/**
 * The rule itself, on what is known of one code: the row (undefined when there is none), the order holding it, the
 * free request it was mailed with, and, when the code is the order's chosen one, whose it must still be.
 */
export function codeVerdict(
	codeId: number,
	{
		code,
		holder,
		sentWith,
		forOrderId,
		choice,
	}: {
		code: { userId: string | null; isActive: boolean } | undefined
		holder?: CodeHolder
		sentWith?: string
		forOrderId?: string
		choice?: ShopperChoice
	},
): CodeVerdict {
	const problem = (p: CodeProblem): CodeVerdict => ({ kind: 'problem', problem: p })
	if (!code) return problem({ codeId, reason: 'missing' })
	if (forOrderId !== undefined && holder?.orderId === forOrderId) return { kind: 'on-order' }
	const chosen = choice?.codeId === codeId
	if (chosen) {
		if (choice.shopperId === null || code.userId !== choice.shopperId) return problem({ codeId, reason: 'not-shoppers' })
	} else if (code.userId !== null) return problem({ codeId, reason: 'claimed' })
	else if (!code.isActive) return problem({ codeId, reason: 'inactive' })
	if (holder && holder.status !== 'cancelled')
		return problem({ codeId, reason: 'ordered', orderId: holder.orderId, orderNumber: holder.orderNumber })
	if (!chosen && sentWith !== undefined) return problem({ codeId, reason: 'sent', requestId: sentWith })
	return { kind: 'free', onCancelledOrder: Boolean(holder) }
}

/** Whole numbers from 1 to the int4 maximum: qr_codes.id. */
const isCodeId = (value: unknown): value is number =>
	Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 2_147_483_647

/** The code ids listed in a fulfilment's audit details. */
export function codeIdsIn(details: Record<string, unknown> | null | undefined): number[] {
	const ids = details?.qrCodeIds
	return Array.isArray(ids) ? ids.filter(isCodeId) : []
}

/** The audit entries of fulfilled requests that also meet `where`, oldest first: the request (subjectId) and its codes (details). */
export function fulfilledRequestEntries(tx: Executor, where: SQL | undefined) {
	return tx
		.select({ subjectId: auditLog.subjectId, details: auditLog.details })
		.from(auditLog)
		.where(and(eq(auditLog.action, REQUEST_FULFILLED_ACTION), where))
		.orderBy(asc(auditLog.id))
}

/**
 * Inside the caller's transaction: locks the codes' qr_codes rows in ascending id order (so two transactions sharing
 * codes take turns and never wait on each other in a circle), then reads, as committed by then, whether each exists, is
 * unclaimed and active, is on an order that is not cancelled, or was already mailed with a free request. A code
 * already on `forOrderId` is reported in alreadyOnOrder, whatever else is true of it; `choice` is that order's chosen
 * code (see codeVerdict). `ids` must be qr_codes ids (1 to 2147483647); repeats count once.
 */
export async function checkCodeCommitments(
	tx: Executor,
	ids: readonly number[],
	{ forOrderId, choice }: { forOrderId?: string; choice?: ShopperChoice } = {},
): Promise<CodeCommitments> {
	const sorted = [...new Set(ids)].sort((a, b) => a - b)
	const answer: CodeCommitments = { free: [], onCancelledOrders: [], alreadyOnOrder: [], problems: [] }
	if (!sorted.length) return answer
	const codes = await tx
		.select({ id: qrCodes.id, userId: qrCodes.userId, isActive: qrCodes.isActive })
		.from(qrCodes)
		.where(inArray(qrCodes.id, sorted))
		.orderBy(asc(qrCodes.id))
		.for('update')
	const byId = new Map(codes.map((code) => [code.id, code]))
	const onOrders = await tx
		.select({
			qrCodeId: orderAssignedCodes.qrCodeId,
			orderId: orderAssignedCodes.orderId,
			orderNumber: orders.confirmationNumber,
			status: orders.fulfillmentStatus,
		})
		.from(orderAssignedCodes)
		.innerJoin(orders, eq(orders.id, orderAssignedCodes.orderId))
		.where(inArray(orderAssignedCodes.qrCodeId, sorted))
	const orderOf = new Map(onOrders.map((row) => [row.qrCodeId, row]))
	const sentWith = await requestsThatSent(tx, sorted)
	for (const codeId of sorted) {
		const verdict = codeVerdict(codeId, {
			code: byId.get(codeId),
			holder: orderOf.get(codeId),
			sentWith: sentWith.get(codeId),
			forOrderId,
			choice,
		})
		if (verdict.kind === 'problem') answer.problems.push(verdict.problem)
		else if (verdict.kind === 'on-order') answer.alreadyOnOrder.push(codeId)
		else {
			answer.free.push(codeId)
			if (verdict.onCancelledOrder) answer.onCancelledOrders.push(codeId)
		}
	}
	return answer
}

/** Which fulfilled request each code went out with (the first, should there be more), from the audit entries. */
async function requestsThatSent(tx: Executor, ids: number[]) {
	const entries = await fulfilledRequestEntries(
		tx,
		or(...ids.map((codeId) => sql`${auditLog.details} @> ${JSON.stringify({ qrCodeIds: [codeId] })}::jsonb`)),
	)
	const wanted = new Set(ids)
	const sentWith = new Map<number, string>()
	for (const entry of entries)
		for (const codeId of codeIdsIn(entry.details))
			if (wanted.has(codeId) && !sentWith.has(codeId)) sentWith.set(codeId, entry.subjectId ?? '?')
	return sentWith
}

/**
 * Takes codes off the cancelled orders that still list them (checkCodeCommitments' onCancelledOrders), so they can
 * go out again. Call it in the same transaction, after the check; only rows of cancelled orders are removed.
 */
export async function releaseCancelledOrderCodes(tx: Executor, codeIds: readonly number[]) {
	if (!codeIds.length) return
	await tx
		.delete(orderAssignedCodes)
		.where(
			and(
				inArray(orderAssignedCodes.qrCodeId, [...codeIds]),
				inArray(orderAssignedCodes.orderId, tx.select({ id: orders.id }).from(orders).where(eq(orders.fulfillmentStatus, 'cancelled'))),
			),
		)
}
