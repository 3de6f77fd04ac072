import { and, asc, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import { deliverSoon, queueEmail, type EmailInput } from '#app/adapters/mail.server.ts'
import { isUniqueViolation } from '#app/domain/accounts/accounts.server.ts'
import { receivedCents } from '#app/domain/analytics/figures.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { runHeavy } from '#app/domain/heavy-work.server.ts'
import { codeLabel } from '#app/domain/qr/code-label.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { lineOptions } from '#app/domain/shop/cart.ts'
import { shippingOption } from '#app/domain/shop/shipping.ts'
import { csvLine } from '#app/utils/csv.ts'
import { formatDate } from '#app/utils/dates.ts'
import { env } from '#app/utils/env.server.ts'
import { db, type Executor } from '#db/client.ts'
import { columnsOf } from '#db/queries.ts'
import { orderAssignedCodes, orderItems, orders, ownerSettings, qrCodes, users, type Order } from '#db/schema.ts'
import { shippingAddressLines, shippingAddressText } from './address.ts'
import { chosenCodeStatus, type ChosenCode } from './chosen-code.ts'
import { checkCodeCommitments, codeVerdict, type CodeProblem, releaseCancelledOrderCodes } from './code-commitments.server.ts'
import { canChangeCodes, documentProblem, isFulfillmentStatus, nextStatusProblem, statusBadge } from './order-status.ts'
import { renderShippingDocumentPdf, type ShippingDocument } from './shipping-document.server.ts'

export const ORDERS_PAGE_SIZE = 10
/** Spec 002 §9: the new-order alert lists at most this many. */
export const NEW_ORDERS_LISTED = 3
/** The assign dialog takes at most this many ids, in at most this many characters, before any parsing. */
export const MAX_ASSIGN_IDS = 1000
export const MAX_ASSIGN_INPUT = 20_000
export const INVALID_CODE_IDS = 'Please enter valid QR code IDs.'
export const ORDER_NOT_FOUND = 'Order not found.'

/** qr_codes.id is a PostgreSQL integer: a larger number is no code, and would make the query fail. */
const MAX_CODE_ID = 2_147_483_647

/** Spec 002 §3 "Order (admin)": the JSON of one order, for the list, the detail page, the alert and the API. */
export type AdminOrder = {
	orderId: string
	/** The confirmation number (HMH-…); the last 8 characters of the id for an order without one. */
	orderNumber: string
	confirmationNumber: string
	/** Dollars: the order's total at list prices by the spec's rules (shop orders are free: nothing of it was charged). */
	amount: number
	totalAmount: number
	subtotal: number
	shippingCost: number
	/** Dollars actually paid: what was charged (0 for a free order), what went back, and the difference (its revenue). */
	charged: number
	refunded: number
	received: number
	currency: string
	/** ISO times. */
	timestamp: string
	createdAt: string
	fulfilledAt: string | null
	shippedAt: string | null
	customerName: string | null
	customerEmail: string
	/** As stored; shippingAddressLines (./address.ts) turns it into lines or a fallback text. */
	shippingAddress: unknown
	items: Array<{ name: string; quantity: number; price: number; customText: string | null }>
	selectedQrCodeId: number | null
	/** That code as the owner sees it (label, scan link, whether it can go with this order); null once it is deleted. */
	selectedQrCode: ChosenCode | null
	qrShape: string | null
	hasQrCodes: boolean
	qrCodeCount: number
	assignedQrCodeIds: number[]
	fulfillmentStatus: string
	/** Spec 002: completed or other; 'free' for a free order (nothing charged). */
	paymentStatus: string
	orderType: string
}

type ItemRow = Pick<typeof orderItems.$inferSelect, 'orderId' | 'name' | 'quantity' | 'unitPriceCents' | 'customText'>

const dollars = (cents: number) => cents / 100
const iso = (date: Date | null) => (date ? date.toISOString() : null)

/** The one builder of AdminOrder: every caller passes the order row, its items, its assigned code ids and its chosen code. */
export function adminOrderJson(order: Order, items: ItemRow[], assignedQrCodeIds: number[], selectedQrCode: ChosenCode | null): AdminOrder {
	const createdAt = order.createdAt.toISOString()
	return {
		orderId: order.id,
		orderNumber: order.confirmationNumber || order.id.slice(-8),
		confirmationNumber: order.confirmationNumber,
		amount: dollars(order.totalCents),
		totalAmount: dollars(order.totalCents),
		subtotal: dollars(order.subtotalCents),
		shippingCost: dollars(order.shippingCents),
		charged: dollars(order.chargedCents),
		refunded: dollars(order.refundedCents),
		received: dollars(receivedCents(order)),
		currency: order.currency,
		timestamp: createdAt,
		createdAt,
		fulfilledAt: iso(order.fulfilledAt),
		shippedAt: iso(order.shippedAt),
		customerName: order.customerName,
		customerEmail: order.customerEmail,
		shippingAddress: order.shippingAddress,
		items: items.map((item) => ({
			name: item.name,
			quantity: item.quantity,
			price: dollars(item.unitPriceCents),
			customText: item.customText,
		})),
		selectedQrCodeId: order.selectedQrCodeId,
		selectedQrCode,
		qrShape: order.qrShape,
		hasQrCodes: assignedQrCodeIds.length > 0,
		qrCodeCount: assignedQrCodeIds.length,
		assignedQrCodeIds,
		fulfillmentStatus: order.fulfillmentStatus,
		paymentStatus: order.paymentStatus,
		orderType: order.orderType,
	}
}

const holder = alias(orders, 'holder')

/** Codes, each with the order holding it (at most one), read for their orders' assigned and chosen codes. */
function codeRows(executor: Executor, where: SQL) {
	return executor
		.select({
			id: qrCodes.id,
			pin: qrCodes.pin,
			token: qrCodes.token,
			userId: qrCodes.userId,
			isActive: qrCodes.isActive,
			holderId: orderAssignedCodes.orderId,
			holderNumber: holder.confirmationNumber,
			holderStatus: holder.fulfillmentStatus,
		})
		.from(qrCodes)
		.leftJoin(orderAssignedCodes, eq(orderAssignedCodes.qrCodeId, qrCodes.id))
		.leftJoin(holder, eq(holder.id, orderAssignedCodes.orderId))
		.where(where)
}
type CodeRow = Awaited<ReturnType<typeof codeRows>>[number]

/** The codes assigned to these orders and the codes their shoppers chose, in one query. */
async function orderCodes(executor: Executor, rows: Order[]): Promise<CodeRow[]> {
	const assigned = codeRows(
		executor,
		inArray(
			orderAssignedCodes.orderId,
			rows.map((row) => row.id),
		),
	)
	const chosenIds = [...new Set(rows.flatMap((row) => (row.selectedQrCodeId === null ? [] : [row.selectedQrCodeId])))]
	return chosenIds.length ? assigned.unionAll(codeRows(executor, inArray(qrCodes.id, chosenIds))) : assigned
}

/** The order's chosen code as the owner sees it, judged by the rule assignQrCodes applies (codeVerdict). */
function chosenCodeJson(order: Order, codes: CodeRow[]): ChosenCode | null {
	const code = codes.find((c) => c.id === order.selectedQrCodeId)
	if (!code) return null
	const holding = code.holderId
		? { orderId: code.holderId, orderNumber: code.holderNumber ?? '', status: code.holderStatus ?? '' }
		: undefined
	const verdict = codeVerdict(code.id, {
		code,
		holder: holding,
		forOrderId: order.id,
		choice: { codeId: code.id, shopperId: order.userId },
	})
	const ownedByShopper = order.userId !== null && code.userId === order.userId
	return {
		id: code.id,
		label: codeLabel(code),
		scanUrl: ownedByShopper || code.userId === null ? scanUrl(code.token) : null,
		ownedByShopper,
		active: code.isActive,
		assigned: verdict.kind === 'on-order',
		problem: verdict.kind === 'problem' ? problemMessage(verdict.problem) : null,
	}
}

/** Items, assigned codes and chosen codes of many orders in two queries, whatever their number. */
async function withDetails(rows: Order[], executor: Executor = db): Promise<AdminOrder[]> {
	if (!rows.length) return []
	const ids = rows.map((row) => row.id)
	const items = await executor
		.select(columnsOf(orderItems, 'orderId', 'name', 'quantity', 'unitPriceCents', 'customText'))
		.from(orderItems)
		.where(inArray(orderItems.orderId, ids))
		.orderBy(asc(orderItems.id))
	const codes = await orderCodes(executor, rows)
	return rows.map((row) =>
		adminOrderJson(
			row,
			items.filter((item) => item.orderId === row.id),
			[...new Set(codes.filter((code) => code.holderId === row.id).map((code) => code.id))].sort((a, b) => a - b),
			chosenCodeJson(row, codes),
		),
	)
}

/** Order ids are UUIDs; anything empty or absurdly long is no order, without asking the database. */
function plausibleOrderId(orderId: string) {
	return typeof orderId === 'string' && orderId.length > 0 && orderId.length <= 100
}

async function adminOrder(orderId: string) {
	const row = await db.query.orders.findFirst({ where: eq(orders.id, orderId) })
	return row ? (await withDetails([row]))[0]! : null
}

/** Spec 002 §2 Orders tab: ten per page, newest first; the page is clamped to 1..pageCount. Four queries per page. */
export async function listOrders({ page = 1 }: { page?: number } = {}) {
	const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(orders)
	const pageCount = Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE))
	const wanted = Number.isFinite(page) ? Math.trunc(page) : 1
	const current = Math.min(pageCount, Math.max(1, wanted))
	const rows = await db
		.select()
		.from(orders)
		.orderBy(desc(orders.createdAt), desc(orders.id))
		.limit(ORDERS_PAGE_SIZE)
		.offset((current - 1) * ORDERS_PAGE_SIZE)
	return { orders: await withDetails(rows), page: current, pageCount, total }
}

export type OrderDetails = {
	order: AdminOrder
	/** The account that placed it; null for a guest order or a deleted account. */
	customer: { id: string; email: string; name: string | null; firstName: string | null; lastName: string | null } | null
	/** The codes assigned to the order. */
	qrCodes: Array<{ id: number; pin: string | null; scanUrl: string; claimed: boolean; active: boolean }>
}

/** GET /api/admin/order-details/{orderId} and /admin/orders/{orderId}: null when there is no such order. */
export async function orderDetails(orderId: string): Promise<OrderDetails | null> {
	if (!plausibleOrderId(orderId)) return null
	const row = await db.query.orders.findFirst({ where: eq(orders.id, orderId) })
	if (!row) return null
	const [order] = await withDetails([row])
	const codes = await assignedCodes(orderId)
	const user = row.userId
		? await db.query.users.findFirst({
				columns: { id: true, email: true, firstName: true, lastName: true },
				where: eq(users.id, row.userId),
			})
		: undefined
	const name = user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || null : null
	return {
		order: order!,
		customer: user ? { ...user, name } : null,
		qrCodes: codes.map((code) => ({
			id: code.id,
			pin: code.pin,
			scanUrl: scanUrl(code.token),
			claimed: code.userId !== null,
			active: code.isActive,
		})),
	}
}

function assignedCodes(orderId: string, executor: Executor = db) {
	return executor
		.select({ id: qrCodes.id, pin: qrCodes.pin, token: qrCodes.token, userId: qrCodes.userId, isActive: qrCodes.isActive })
		.from(orderAssignedCodes)
		.innerJoin(qrCodes, eq(qrCodes.id, orderAssignedCodes.qrCodeId))
		.where(eq(orderAssignedCodes.orderId, orderId))
		.orderBy(asc(qrCodes.id))
}

function tooMany(): never {
	throw new DomainError(400, `Please enter at most ${MAX_ASSIGN_IDS} QR code IDs.`, 'qrCodeIds')
}

const validCodeId = (n: number) => Number.isSafeInteger(n) && n > 0 && n <= MAX_CODE_ID

/**
 * Spec 002 §5: comma-separated integers (spaces and line breaks separate too); anything else is dropped, as are zero,
 * negative and out-of-range numbers and repeats. Too long an input is refused before it is read.
 */
export function parseQrCodeIds(text: string): number[] {
	if (typeof text !== 'string') return []
	if (text.length > MAX_ASSIGN_INPUT) tooMany()
	const ids = new Set<number>()
	for (const part of text.split(/[\s,]+/)) {
		if (!/^\d{1,10}$/.test(part)) continue
		const id = Number(part)
		if (validCodeId(id)) ids.add(id)
		if (ids.size > MAX_ASSIGN_IDS) tooMany()
	}
	return [...ids]
}

function codeIdsFrom(input: string | number[]) {
	if (typeof input === 'string') return parseQrCodeIds(input)
	if (!Array.isArray(input)) return []
	if (input.length > MAX_ASSIGN_IDS * 2) tooMany()
	const ids = [...new Set(input.filter((n) => typeof n === 'number' && validCodeId(n)))]
	if (ids.length > MAX_ASSIGN_IDS) tooMany()
	return ids
}

/** The order row, locked until the transaction ends: two requests on one order take turns. */
async function lockOrder(tx: Executor, orderId: string) {
	if (!plausibleOrderId(orderId)) throw new DomainError(404, ORDER_NOT_FOUND)
	const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
	if (!row) throw new DomainError(404, ORDER_NOT_FOUND)
	return row
}

async function assignedIds(tx: Executor, orderId: string) {
	const rows = await tx
		.select({ id: orderAssignedCodes.qrCodeId })
		.from(orderAssignedCodes)
		.where(eq(orderAssignedCodes.orderId, orderId))
		.orderBy(asc(orderAssignedCodes.qrCodeId))
	return rows.map((r) => r.id)
}

/** At most this many problems are named in one message. */
const PROBLEMS_NAMED = 10

function problemsMessage(problems: string[]) {
	const named = problems.slice(0, PROBLEMS_NAMED)
	const more = problems.length - named.length
	return [...named, ...(more ? [`…and ${more} more.`] : [])].join(' ')
}

/** How the assign dialog words each problem checkCodeCommitments reports. */
function problemMessage(problem: CodeProblem) {
	const { codeId } = problem
	switch (problem.reason) {
		case 'missing':
			return `No code ${codeId}.`
		case 'claimed':
			return `Code ${codeId} is already claimed.`
		case 'not-shoppers':
			return `Code ${codeId} was chosen for this order but is no longer the shopper’s.`
		case 'inactive':
			return `Code ${codeId} is inactive.`
		case 'ordered':
			return `Code ${codeId} is assigned to order ${problem.orderNumber}.`
		case 'sent':
			return `Code ${codeId} was already sent with free QR request #${problem.requestId}.`
	}
}

export type CodeChange = { assignedQrCodeIds: number[]; fulfillmentStatus: string }

/**
 * POST /api/admin/orders/{orderId}/assign-qr. Every code must exist, be active and unclaimed, and go out with no other
 * order (one assigned to a cancelled order is free again, and moves) and with no free QR request: the rule
 * fulfillQrRequest shares (code-commitments.server.ts); otherwise nothing changes. The order's chosen code is the
 * exception: it is the shopper's, and goes while it still is (and no other order holds it). Codes already on this order are
 * left as they are. A pending order becomes processing. The order row and the code rows are locked (codes in id
 * order, so two requests never wait on each other in a circle), and the unique index on order_assigned_codes.qr_code_id
 * stands behind the checks.
 */
export async function assignQrCodes(orderId: string, input: string | number[]): Promise<CodeChange & { assigned: number[] }> {
	const ids = codeIdsFrom(input)
	if (!ids.length) throw new DomainError(400, INVALID_CODE_IDS, 'qrCodeIds')
	try {
		return await db.transaction(async (tx) => {
			const order = await lockOrder(tx, orderId)
			if (!canChangeCodes(order.fulfillmentStatus))
				throw new DomainError(
					409,
					`QR codes can be assigned only to a pending or processing order; this one is ${statusBadge(order.fulfillmentStatus).label.toLowerCase()}.`,
				)
			const choice = order.selectedQrCodeId === null ? undefined : { codeId: order.selectedQrCodeId, shopperId: order.userId }
			const { free, onCancelledOrders, problems } = await checkCodeCommitments(tx, ids, { forOrderId: order.id, choice })
			if (problems.length) throw new DomainError(409, problemsMessage(problems.map(problemMessage)), 'qrCodeIds')
			if (free.length) {
				await releaseCancelledOrderCodes(tx, onCancelledOrders)
				await tx.insert(orderAssignedCodes).values(free.map((qrCodeId) => ({ orderId: order.id, qrCodeId })))
			}
			const fulfillmentStatus = order.fulfillmentStatus === 'pending' ? 'processing' : order.fulfillmentStatus
			if (fulfillmentStatus !== order.fulfillmentStatus) await tx.update(orders).set({ fulfillmentStatus }).where(eq(orders.id, order.id))
			return { assigned: free, assignedQrCodeIds: await assignedIds(tx, order.id), fulfillmentStatus }
		})
	} catch (error) {
		// The locks make this unreachable; should a code row ever be missed, the unique index still says no.
		if (isUniqueViolation(error)) throw new DomainError(409, 'One of these codes was just assigned to another order.', 'qrCodeIds')
		throw error
	}
}

/** Takes a code off an order assigned by mistake, while it is pending or processing; an order left without codes is pending again. */
export async function unassignQrCode(orderId: string, codeId: number): Promise<CodeChange> {
	return db.transaction(async (tx) => {
		const order = await lockOrder(tx, orderId)
		if (!canChangeCodes(order.fulfillmentStatus))
			throw new DomainError(409, 'QR codes can be removed only from a pending or processing order.')
		const removed = validCodeId(codeId)
			? await tx
					.delete(orderAssignedCodes)
					.where(and(eq(orderAssignedCodes.orderId, order.id), eq(orderAssignedCodes.qrCodeId, codeId)))
					.returning({ id: orderAssignedCodes.qrCodeId })
			: []
		if (!removed.length) throw new DomainError(404, `Code ${codeId} is not assigned to this order.`)
		const remaining = await assignedIds(tx, order.id)
		const fulfillmentStatus = remaining.length ? order.fulfillmentStatus : 'pending'
		if (fulfillmentStatus !== order.fulfillmentStatus) await tx.update(orders).set({ fulfillmentStatus }).where(eq(orders.id, order.id))
		return { assignedQrCodeIds: remaining, fulfillmentStatus }
	})
}

async function countAssigned(tx: Executor, orderId: string) {
	const [row] = await tx.select({ n: count() }).from(orderAssignedCodes).where(eq(orderAssignedCodes.orderId, orderId))
	return row?.n ?? 0
}

const Email = z.email()

/**
 * PATCH /api/admin/orders/{orderId}/status. The move must be one order-status.ts allows (409 with its reason
 * otherwise, nothing changed); asking twice for the same status is refused, so the shipping e-mail goes once.
 * Shipped queues that e-mail in the same transaction and delivers it after the commit.
 */
export async function setFulfillmentStatus(orderId: string, next: string): Promise<AdminOrder> {
	const shipped = await db.transaction(async (tx) => {
		const order = await lockOrder(tx, orderId)
		const problem = nextStatusProblem(order.fulfillmentStatus, next, await countAssigned(tx, order.id))
		if (problem || !isFulfillmentStatus(next)) throw new DomainError(409, problem ?? 'Unknown status.', 'fulfillmentStatus')
		const now = new Date()
		const [updated] = await tx
			.update(orders)
			.set({
				fulfillmentStatus: next,
				...(next === 'fulfilled' ? { fulfilledAt: now } : {}),
				...(next === 'shipped' ? { shippedAt: now } : {}),
			})
			.where(eq(orders.id, order.id))
			.returning()
		if (next !== 'shipped' || !Email.safeParse(updated!.customerEmail).success) return false
		const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id))
		await queueEmail(tx, shippedEmail(updated!, items))
		return true
	})
	if (shipped) deliverSoon()
	return (await adminOrder(orderId))!
}

function shippedEmail(order: Order, items: Array<typeof orderItems.$inferSelect>): EmailInput {
	const address = shippingAddressLines(order.shippingAddress)
	const option = shippingOption(order.shippingCountry ?? 'US', order.shippingMethod ?? 'standard')
	return {
		to: order.customerEmail,
		userId: order.userId ?? undefined,
		type: 'order-shipped',
		subject: `Your order ${order.confirmationNumber} has shipped`,
		text: [
			`Good news${order.customerName ? `, ${order.customerName}` : ''}: your order ${order.confirmationNumber} is on its way.`,
			items.map(describeItem).join('\n'),
			...('lines' in address ? [`Shipped${option ? ` ${option.label.toLowerCase()}` : ''} to:\n${address.lines.join('\n')}`] : []),
			`Track your order with its confirmation number and this e-mail address: ${new URL('/order-tracking', env.PUBLIC_URL)}`,
			`Questions? Write to ${env.SUPPORT_EMAIL}.`,
		].join('\n\n'),
	}
}

function describeItem(item: typeof orderItems.$inferSelect) {
	const options = lineOptions(item)
	return `${item.quantity} × ${item.name}${options.length ? ` (${options.join(', ')})` : ''}`
}

/**
 * What opening the shipping document does: a processing order with codes becomes fulfilled; a fulfilled, shipped or
 * delivered one stays as it is; without codes (or pending, or cancelled) it is refused.
 */
export async function markDocumentGenerated(orderId: string): Promise<{ fulfillmentStatus: string; changed: boolean }> {
	return db.transaction(async (tx) => {
		const order = await lockOrder(tx, orderId)
		const problem = documentProblem({ status: order.fulfillmentStatus, assignedCount: await countAssigned(tx, order.id) })
		if (problem) throw new DomainError(409, problem)
		if (order.fulfillmentStatus !== 'processing') return { fulfillmentStatus: order.fulfillmentStatus, changed: false }
		await tx.update(orders).set({ fulfillmentStatus: 'fulfilled', fulfilledAt: new Date() }).where(eq(orders.id, order.id))
		return { fulfillmentStatus: 'fulfilled', changed: true }
	})
}

/** The packing slip's content (/admin/order/{orderId}); null when there is no such order. */
export async function shippingDocument(orderId: string): Promise<ShippingDocument | null> {
	if (!plausibleOrderId(orderId)) return null
	const order = await db.query.orders.findFirst({ where: eq(orders.id, orderId) })
	if (!order) return null
	const items = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id))
	const codes = await orderCodes(db, [order])
	const chosen = chosenCodeJson(order, codes)
	const assigned = [...new Map(codes.filter((code) => code.holderId === order.id).map((code) => [code.id, code])).values()]
	// The shopper's own code leads; the rest by number.
	assigned.sort((a, b) => Number(b.id === chosen?.id) - Number(a.id === chosen?.id) || a.id - b.id)
	const address = shippingAddressLines(order.shippingAddress)
	const option = shippingOption(order.shippingCountry ?? 'US', order.shippingMethod ?? 'standard')
	return {
		orderId: order.id,
		orderNumber: order.confirmationNumber || order.id.slice(-8),
		placedAt: order.createdAt.toISOString(),
		placedOn: formatDate(order.createdAt),
		fulfillmentStatus: order.fulfillmentStatus,
		customerName: order.customerName,
		customerEmail: order.customerEmail,
		shipTo: 'lines' in address ? address.lines : [address.fallback],
		addressFallback: 'fallback' in address ? address.fallback : null,
		shippingMethod: option?.label ?? order.shippingMethod,
		items: items.map((item) => ({
			name: item.name,
			quantity: item.quantity,
			options: lineOptions(item),
			customText: item.customText,
		})),
		chosenCode: chosen,
		chosenCodeStatus: chosenCodeStatus(chosen),
		codes: assigned.map((code) => {
			const url = scanUrl(code.token)
			return {
				id: code.id,
				// A PIN is what claims a code: printed only for one nobody has claimed yet.
				pin: code.userId === null ? code.pin : null,
				chosen: code.id === chosen?.id,
				claimed: code.userId !== null,
				scanUrl: url,
				svg: renderQrSvg({ data: url, circular: false, color: '#000000', width: 160 }),
			}
		}),
	}
}

/** The packing slip as a Letter-size PDF; null when there is no such order. */
export async function shippingDocumentPdf(orderId: string): Promise<Uint8Array | null> {
	const doc = await shippingDocument(orderId)
	return doc ? runHeavy(() => renderShippingDocumentPdf(doc)) : null
}

export const ORDERS_CSV_COLUMNS = [
	'orderNumber',
	'date',
	'customerName',
	'customerEmail',
	'status',
	'paymentStatus',
	'total',
	'received',
	'items',
	'shippingAddress',
	'assignedCodes',
	'chosenCode',
	'chosenCodeLabel',
	'chosenCodeScanUrl',
	'chosenCodeStatus',
] as const

/** Orders read per query while exporting. */
const CSV_CHUNK = 500

/** Export Orders: the header, then one line (CRLF-terminated) per order, newest first, read a chunk at a time. */
export async function* ordersCsvLines(): AsyncGenerator<string> {
	yield csvLine([...ORDERS_CSV_COLUMNS])
	// The ids first, so an order placed during the export neither shifts nor repeats a chunk.
	const ids = (await db.select({ id: orders.id }).from(orders).orderBy(desc(orders.createdAt), desc(orders.id))).map((r) => r.id)
	for (let start = 0; start < ids.length; start += CSV_CHUNK) {
		const chunk = ids.slice(start, start + CSV_CHUNK)
		const rows = await db.select().from(orders).where(inArray(orders.id, chunk))
		const position = new Map(chunk.map((id, index) => [id, index]))
		rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!)
		for (const order of await withDetails(rows)) {
			yield csvLine([
				order.orderNumber,
				order.createdAt,
				order.customerName,
				order.customerEmail,
				order.fulfillmentStatus,
				order.paymentStatus,
				order.totalAmount.toFixed(2),
				order.received.toFixed(2),
				order.items.map((i) => `${i.quantity} x ${i.name}${i.customText ? ` (text: ${i.customText})` : ''}`).join('; '),
				shippingAddressText(order.shippingAddress),
				order.assignedQrCodeIds.join(' '),
				order.selectedQrCode?.id,
				order.selectedQrCode?.label,
				order.selectedQrCode?.scanUrl,
				chosenCodeStatus(order.selectedQrCode),
			])
		}
	}
}

/** The whole export as one string. */
export async function ordersCsv() {
	let csv = ''
	for await (const line of ordersCsvLines()) csv += line
	return csv
}

/** New orders are those placed at least 1 ms after the time seen: a Date has milliseconds, the column microseconds. */
const after = (seenAt: Date) => gte(orders.createdAt, new Date(seenAt.getTime() + 1))

/**
 * Spec 002 §4 new-order alert, kept on the server: orders placed after the owner last dismissed it, at most 3 listed
 * (newest first) and their total. An owner who never dismissed it starts from now, with nothing to show.
 * `newestAt` is what to pass to dismissNewOrders, so an order placed meanwhile still shows next time.
 */
export async function newOrdersFor(ownerUserId: string): Promise<{ orders: AdminOrder[]; total: number; newestAt: string | null }> {
	const settings = await db.query.ownerSettings.findFirst({ columns: { ordersSeenAt: true }, where: eq(ownerSettings.userId, ownerUserId) })
	if (!settings?.ordersSeenAt) {
		await db
			.insert(ownerSettings)
			.values({ userId: ownerUserId, ordersSeenAt: sql`now()` })
			.onConflictDoUpdate({
				target: ownerSettings.userId,
				set: { ordersSeenAt: sql`coalesce(${ownerSettings.ordersSeenAt}, excluded.orders_seen_at)` },
			})
		return { orders: [], total: 0, newestAt: null }
	}
	const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(orders).where(after(settings.ordersSeenAt))
	if (!total) return { orders: [], total: 0, newestAt: null }
	const rows = await db
		.select()
		.from(orders)
		.where(after(settings.ordersSeenAt))
		.orderBy(desc(orders.createdAt), desc(orders.id))
		.limit(NEW_ORDERS_LISTED)
	return { orders: await withDetails(rows), total, newestAt: rows[0]?.createdAt.toISOString() ?? null }
}

/** Records that the owner saw the orders placed up to `seenAt` (never later than now); the time never moves back. */
export async function dismissNewOrders(ownerUserId: string, seenAt: Date): Promise<Date> {
	if (!(seenAt instanceof Date) || Number.isNaN(seenAt.getTime())) throw new DomainError(400, 'Not a valid time.', 'seenAt')
	const time = new Date(Math.min(seenAt.getTime(), Date.now()))
	const [row] = await db
		.insert(ownerSettings)
		.values({ userId: ownerUserId, ordersSeenAt: time })
		.onConflictDoUpdate({
			target: ownerSettings.userId,
			set: { ordersSeenAt: sql`greatest(${ownerSettings.ordersSeenAt}, excluded.orders_seen_at)` },
		})
		.returning({ ordersSeenAt: ownerSettings.ordersSeenAt })
	return row!.ordersSeenAt!
}
