import { and, desc, eq, isNull, notExists, sql, type SQL } from 'drizzle-orm'
import { db, type Executor } from '#db/client.ts'
import { orderAssignedCodes, qrBatches, qrCodes, users, type QrBatchFormat } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { runHeavy } from '#app/domain/heavy-work.server.ts'
import { renderFile } from '#app/domain/render/pool.server.ts'
import { newPin, newScanToken, scanUrl } from '#app/domain/qr/codes.server.ts'
import type { BatchCode, Nudge } from './batch-code.ts'
import { buildCalibrationPdf } from './sheet-pdf.server.ts'
import { layoutById, MAX_NUDGE_MM } from './layouts.ts'
import { BatchRequestSchema, INVALID_NUDGE, UNKNOWN_LAYOUT } from './schemas.ts'

export type BatchFile = { fileName: string; contentType: string; body: Uint8Array }

export type BatchSummary = {
	id: number
	count: number
	format: QrBatchFormat
	layout: string | null
	createdAt: Date
	/** The creator's e-mail; null once their account is gone. */
	createdBy: string | null
	/** Codes of the batch nobody has claimed. */
	unclaimed: number
	/** Of those, the ones a new download prints: not sent out with an order either. */
	reprintable: number
}

export const ALL_CLAIMED = 'Every code of this batch has been claimed.'

const INSERT_CHUNK = 100

const CONTENT_TYPES: Record<QrBatchFormat, string> = {
	png: 'application/zip',
	svg: 'application/zip',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	pdf: 'application/pdf',
}

/**
 * Makes `count` new unclaimed sticker codes as one batch (the batch row and its codes in one transaction), then
 * builds its file in a renderer process. Should the file fail, the batch stays and `batchFile` builds it again.
 */
export async function generateBatch(input: {
	count: number
	format: QrBatchFormat
	layout?: string
	nudgeXMm?: number
	nudgeYMm?: number
	createdByUserId: string | null
}): Promise<{ batchId: number; codes: number; file: BatchFile }> {
	// A place in the heavy-work pool first: a server too busy to build the file makes no batch.
	return runHeavy(() => makeBatch(input))
}

async function makeBatch(input: Parameters<typeof generateBatch>[0]) {
	const parsed = BatchRequestSchema.safeParse(input)
	if (!parsed.success) {
		const issue = parsed.error.issues[0]!
		throw new DomainError(400, issue.message, issue.path[0] === undefined ? undefined : String(issue.path[0]))
	}
	const { count, format, layout, nudgeXMm, nudgeYMm } = parsed.data
	// Only a PDF is laid out on a sheet; the other formats keep no layout.
	const sheet = format === 'pdf' ? { layout, nudgeXMm, nudgeYMm } : { layout: null, nudgeXMm: 0, nudgeYMm: 0 }
	const { batchId, codes } = await db.transaction(async (tx) => {
		const [batch] = await tx
			.insert(qrBatches)
			.values({ createdByUserId: input.createdByUserId, count, format, ...sheet })
			.returning({ id: qrBatches.id })
		return { batchId: batch!.id, codes: await insertCodes(tx, batch!.id, count) }
	})
	const file = await renderBatchFile({ id: batchId, format, ...sheet }, codes)
	return { batchId, codes: codes.length, file }
}

/**
 * An earlier batch's file again, as it was made (format, layout, nudges), holding only the codes still free to print:
 * neither claimed nor sent out with an order, so no sticker someone holds is ever printed twice.
 */
export async function batchFile(batchId: number): Promise<BatchFile | null> {
	if (!isId(batchId)) return null
	return runHeavy(() => rebuildBatchFile(batchId))
}

async function rebuildBatchFile(batchId: number) {
	const [batch] = await db
		.select({
			id: qrBatches.id,
			format: qrBatches.format,
			layout: qrBatches.layout,
			nudgeXMm: qrBatches.nudgeXMm,
			nudgeYMm: qrBatches.nudgeYMm,
		})
		.from(qrBatches)
		.where(eq(qrBatches.id, batchId))
	if (!batch) return null
	const rows = await db
		.select({ id: qrCodes.id, pin: qrCodes.pin, token: qrCodes.token })
		.from(qrCodes)
		.where(and(eq(qrCodes.batchId, batchId), reprintable()))
		.orderBy(qrCodes.id)
	if (rows.length === 0) throw new DomainError(409, ALL_CLAIMED)
	const codes = rows.map((row) => ({ id: row.id, pin: row.pin!, scanUrl: scanUrl(row.token) }))
	return renderBatchFile(batch, codes)
}

/** The latest batches, newest first, with how many of their codes are still unclaimed. */
export async function listBatches(limit = 20): Promise<BatchSummary[]> {
	const take = Math.min(Math.max(Math.trunc(limit) || 1, 1), 200)
	const counted = (where: SQL) =>
		sql<number>`(select count(*) from ${qrCodes} where ${qrCodes.batchId} = ${qrBatches.id} and ${where})`.mapWith(Number)
	return db
		.select({
			id: qrBatches.id,
			count: qrBatches.count,
			format: qrBatches.format,
			layout: qrBatches.layout,
			createdAt: qrBatches.createdAt,
			createdBy: users.email,
			unclaimed: counted(unclaimed()),
			reprintable: counted(reprintable()),
		})
		.from(qrBatches)
		.leftJoin(users, eq(users.id, qrBatches.createdByUserId))
		.orderBy(desc(qrBatches.createdAt), desc(qrBatches.id))
		.limit(take)
}

/** One page with every label's outline on `layoutId`, nudged: held over a label sheet, it shows the printer's offset. */
export async function calibrationFile(layoutId: string, nudge: Nudge): Promise<BatchFile> {
	const layout = layoutById(layoutId)
	if (!layout) throw new DomainError(400, UNKNOWN_LAYOUT, 'layout')
	const valid = (mm: unknown) => Number.isInteger(mm) && Math.abs(mm as number) <= MAX_NUDGE_MM
	if (!valid(nudge.x)) throw new DomainError(400, INVALID_NUDGE, 'nudgeXMm')
	if (!valid(nudge.y)) throw new DomainError(400, INVALID_NUDGE, 'nudgeYMm')
	// One page of outlines: light enough for the main thread.
	const body = await buildCalibrationPdf(layout, nudge)
	return { fileName: `hmh-labels-calibration-${layout.id}.pdf`, contentType: CONTENT_TYPES.pdf, body }
}

async function renderBatchFile(
	batch: { id: number; format: QrBatchFormat; layout: string | null; nudgeXMm: number; nudgeYMm: number },
	codes: BatchCode[],
): Promise<BatchFile> {
	const layout = batch.layout ?? ''
	if (batch.format === 'pdf' && !layoutById(layout)) throw new DomainError(400, UNKNOWN_LAYOUT, 'layout')
	const job = {
		format: batch.format,
		codes,
		layout,
		nudge: { x: batch.nudgeXMm, y: batch.nudgeYMm },
		title: `Hit Me Helpers stickers, batch ${batch.id}`,
	}
	const body = await renderFile({ kind: 'batch-file', job })
	const extension = batch.format === 'png' ? 'zip' : batch.format === 'svg' ? 'svg.zip' : batch.format
	return { fileName: `hmh-stickers-batch-${batch.id}-${codes.length}.${extension}`, contentType: CONTENT_TYPES[batch.format], body }
}

/**
 * New unclaimed codes of the batch, a hundred rows a statement: one statement of a thousand rows held the main thread
 * (building and reading 4000 parameters) for up to 200 ms, which a responder's scan would have waited for. A PIN or
 * token collision (about 1 in 10^11 per pair) is simply drawn again.
 */
async function insertCodes(tx: Executor, batchId: number, count: number): Promise<BatchCode[]> {
	const created: BatchCode[] = []
	while (created.length < count) {
		const rows = Array.from({ length: Math.min(INSERT_CHUNK, count - created.length) }, () => ({
			pin: newPin(),
			token: newScanToken(),
			source: 'batch',
			batchId,
		}))
		const inserted = await tx
			.insert(qrCodes)
			.values(rows)
			.onConflictDoNothing()
			.returning({ id: qrCodes.id, pin: qrCodes.pin, token: qrCodes.token })
		for (const row of inserted) created.push({ id: row.id, pin: row.pin!, scanUrl: scanUrl(row.token) })
	}
	return created.sort((a, b) => a.id - b.id)
}

const unclaimed = () => and(isNull(qrCodes.userId), isNull(qrCodes.claimedAt))!

const reprintable = () =>
	and(
		unclaimed(),
		notExists(
			db
				.select({ one: sql`1` })
				.from(orderAssignedCodes)
				.where(eq(orderAssignedCodes.qrCodeId, qrCodes.id)),
		),
	)!

const isId = (value: number) => Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647
