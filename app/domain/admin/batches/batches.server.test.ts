import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Resvg } from '@resvg/resvg-js'
import { eq, inArray } from 'drizzle-orm'
import JSZip from 'jszip'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { orderAssignedCodes, orders, qrBatches, qrCodes } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { parseCsv } from '#tests/csv.ts'
import { createUser } from '#tests/factories.ts'
import { decodeImages, decodePdfRegions, pdfInfo } from '#tests/zbar-all.ts'
import { ALL_CLAIMED, batchFile, calibrationFile, generateBatch, listBatches, type BatchFile } from './batches.server.ts'
import { labelOrigin } from './sheet-pdf.server.ts'
import { labelsPerPage, layoutById, type LabelLayout } from './layouts.ts'
import { closeRenderWorkers } from '#app/domain/render/pool.server.ts'
import { INVALID_QUANTITY } from './schemas.ts'

const run = promisify(execFile)
const PT_PER_MM = 72 / 25.4

let work: string
let owner: { id: string; email: string }
beforeAll(async () => {
	work = await mkdtemp(join(tmpdir(), 'hmh-batches-'))
	owner = await createUser()
})
afterAll(async () => {
	await closeRenderWorkers()
	await rm(work, { recursive: true, force: true })
})

type Printed = { id: number; pin: string; url: string }

async function saved(file: BatchFile) {
	const path = join(work, file.fileName)
	await writeFile(path, file.body)
	return path
}

/** Every printed code is in the database: unclaimed, with that PIN and scan token, in that batch. */
async function expectStored(batchId: number, printed: Printed[]) {
	const rows = await db
		.select({
			id: qrCodes.id,
			pin: qrCodes.pin,
			token: qrCodes.token,
			batchId: qrCodes.batchId,
			userId: qrCodes.userId,
			claimedAt: qrCodes.claimedAt,
		})
		.from(qrCodes)
		.where(
			inArray(
				qrCodes.id,
				printed.map((code) => code.id),
			),
		)
	const byId = new Map(rows.map((row) => [row.id, row]))
	for (const code of printed) {
		const row = byId.get(code.id)
		expect(row, `code ${code.id}`).toBeDefined()
		expect({ pin: row!.pin, url: scanUrl(row!.token), batchId: row!.batchId, userId: row!.userId, claimedAt: row!.claimedAt }).toEqual({
			pin: code.pin,
			url: code.url,
			batchId,
			userId: null,
			claimedAt: null,
		})
	}
}

/** The CSV of a ZIP, through Info-ZIP's unzip; the names it lists. */
async function readZip(path: string) {
	const names = (await run('unzip', ['-Z1', path])).stdout.split('\n').filter(Boolean)
	const csv = (await run('unzip', ['-p', path, 'codes.csv'])).stdout
	const [header, ...rows] = parseCsv(csv)
	expect(header).toEqual(['id', 'pin', 'scan_url'])
	const printed = rows.map(([id, pin, url]) => ({ id: Number(id), pin: pin!, url: url! }))
	return { names, printed }
}

function labelRegions(layout: LabelLayout, count: number, nudge: { x: number; y: number }) {
	return Array.from({ length: count }, (_, i) => {
		const origin = labelOrigin(layout, i, nudge)
		const page = Math.floor(i / labelsPerPage(layout)) + 1
		return { page, xMm: origin.x, yMm: origin.y, widthMm: layout.labelWidthMm, heightMm: layout.labelHeightMm }
	})
}

/** The codes of a batch, in id order (the order every file prints them in). */
async function batchCodes(batchId: number) {
	const rows = await db
		.select({ id: qrCodes.id, pin: qrCodes.pin, token: qrCodes.token })
		.from(qrCodes)
		.where(eq(qrCodes.batchId, batchId))
		.orderBy(qrCodes.id)
	return rows.map((row) => ({ id: row.id, pin: row.pin!, url: scanUrl(row.token) }))
}

describe('generateBatch', () => {
	test('png: a ZIP of one PNG a code and the CSV; every code stored in the batch, unclaimed', async () => {
		const { batchId, codes, file } = await generateBatch({ count: 12, format: 'png', createdByUserId: owner.id })
		expect(codes).toBe(12)
		expect(file).toMatchObject({ fileName: `hmh-stickers-batch-${batchId}-12.zip`, contentType: 'application/zip' })
		const path = await saved(file)
		const { names, printed } = await readZip(path)
		expect(printed).toHaveLength(12)
		expect(names.sort()).toEqual(['codes.csv', ...printed.map((code) => `hmh-sticker-${code.id}.png`)].sort())
		const zip = await JSZip.loadAsync(file.body)
		const pngs = await Promise.all(printed.map((code) => zip.file(`hmh-sticker-${code.id}.png`)!.async('uint8array')))
		expect(await decodeImages(pngs)).toEqual(printed.map((code) => [code.url]))
		await expectStored(batchId, printed)
		expect(await batchCodes(batchId)).toEqual(printed)
		const [batch] = await db.select().from(qrBatches).where(eq(qrBatches.id, batchId))
		expect(batch).toMatchObject({ count: 12, format: 'png', layout: null, nudgeXMm: 0, nudgeYMm: 0, createdByUserId: owner.id })
	})

	test('svg: a ZIP of one SVG a code and the CSV', async () => {
		const { batchId, file } = await generateBatch({ count: 12, format: 'svg', createdByUserId: owner.id })
		expect(file.fileName).toBe(`hmh-stickers-batch-${batchId}-12.svg.zip`)
		const { names, printed } = await readZip(await saved(file))
		expect(names.sort()).toEqual(['codes.csv', ...printed.map((code) => `hmh-sticker-${code.id}.svg`)].sort())
		const zip = await JSZip.loadAsync(file.body)
		const svgs = await Promise.all(printed.map((code) => zip.file(`hmh-sticker-${code.id}.svg`)!.async('string')))
		expect(await decodeImages(svgs.map((svg) => new Resvg(svg).render().asPng()))).toEqual(printed.map((code) => [code.url]))
		await expectStored(batchId, printed)
		expect(await batchCodes(batchId)).toEqual(printed)
	})

	test('docx: two codes a row, each with its PIN and id; every image decodes to a code of the batch', async () => {
		const { batchId, file } = await generateBatch({ count: 15, format: 'docx', createdByUserId: null })
		expect(file).toMatchObject({
			fileName: `hmh-stickers-batch-${batchId}-15.docx`,
			contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		})
		const stored = await batchCodes(batchId)
		expect(stored).toHaveLength(15)
		const zip = await JSZip.loadAsync(file.body)
		const xml = await zip.file('word/document.xml')!.async('string')
		const rows = xml.split('<w:tr>').slice(1)
		expect(rows).toHaveLength(8)
		stored.forEach((code, i) => {
			expect(rows[Math.floor(i / 2)]).toContain(`PIN ${code.pin}<`)
			expect(rows[Math.floor(i / 2)]).toContain(`Code ${code.id}<`)
		})
		const media = Object.keys(zip.files).filter((name) => name.startsWith('word/media/'))
		expect(media).toHaveLength(15)
		const decoded = await decodeImages(await Promise.all(media.map((name) => zip.file(name)!.async('uint8array'))))
		expect(decoded.flat().sort()).toEqual(stored.map((code) => code.url).sort())
		await expectStored(batchId, stored)
		expect((await listBatches(50)).find((batch) => batch.id === batchId)?.createdBy).toBeNull()
	})

	test('pdf: one label a code on the chosen sheet, nudged; each label decodes to its code, beside its PIN', async () => {
		const layout = layoutById('ol2682')!
		const nudge = { x: 2, y: -1 }
		const { batchId, file } = await generateBatch({
			count: 30,
			format: 'pdf',
			layout: layout.id,
			nudgeXMm: nudge.x,
			nudgeYMm: nudge.y,
			createdByUserId: owner.id,
		})
		expect(file).toMatchObject({ fileName: `hmh-stickers-batch-${batchId}-30.pdf`, contentType: 'application/pdf' })
		const info = await pdfInfo(file.body)
		expect(info.Pages).toBe('3')
		expect(info['Page size']).toMatch(/^612 x 792 pts/)
		const stored = await batchCodes(batchId)
		expect(await decodePdfRegions(file.body, labelRegions(layout, 30, nudge))).toEqual(stored.map((code) => [code.url]))
		const text = (await run('pdftotext', ['-layout', await saved(file), '-'])).stdout
		for (const code of stored) expect(text).toContain(`PIN ${code.pin}`)
		await expectStored(batchId, stored)
		const [batch] = await db.select().from(qrBatches).where(eq(qrBatches.id, batchId))
		expect(batch).toMatchObject({ count: 30, format: 'pdf', layout: 'ol2682', nudgeXMm: 2, nudgeYMm: -1 })
	})

	test('pdf of 1000 codes: 50 Letter pages; labels from the first, a middle and the last page decode', async () => {
		const layout = layoutById('letter-grid')!
		const { batchId, codes, file } = await generateBatch({ count: 1000, format: 'pdf', createdByUserId: owner.id })
		expect(codes).toBe(1000)
		expect(file.fileName).toBe(`hmh-stickers-batch-${batchId}-1000.pdf`)
		expect((await pdfInfo(file.body)).Pages).toBe('50')
		const stored = await batchCodes(batchId)
		expect(stored).toHaveLength(1000)
		expect(new Set(stored.map((code) => code.pin)).size).toBe(1000)
		const regions = labelRegions(layout, 1000, { x: 0, y: 0 })
		const sample = [0, 1, 19, 20, 507, 980, 998, 999]
		const decoded = await decodePdfRegions(
			file.body,
			sample.map((i) => regions[i]!),
		)
		expect(decoded).toEqual(sample.map((i) => [stored[i]!.url]))
	}, 60_000)

	test.each([['abc'], [0], [1001], [undefined], [2.5], ['']])('count %j: 400 with the spec message, and nothing stored', async (count) => {
		const before = await db.$count(qrBatches)
		const error = await generateBatch({ count: count as number, format: 'png', createdByUserId: owner.id }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(DomainError)
		expect(error).toMatchObject({ status: 400, message: 'Please enter a quantity between 1 and 1000.', field: 'count' })
		expect(INVALID_QUANTITY).toBe('Please enter a quantity between 1 and 1000.')
		expect(await db.$count(qrBatches)).toBe(before)
	})

	test('an unknown layout or an out-of-range nudge is a 400 on its field', async () => {
		await expect(generateBatch({ count: 5, format: 'pdf', layout: 'avery-9999', createdByUserId: null })).rejects.toMatchObject({
			status: 400,
			field: 'layout',
		})
		await expect(generateBatch({ count: 5, format: 'pdf', nudgeYMm: 11, createdByUserId: null })).rejects.toMatchObject({
			status: 400,
			field: 'nudgeYMm',
		})
	})
})

describe('batchFile', () => {
	test('the batch again in its own format, layout and nudge, without the codes claimed since', async () => {
		const layout = layoutById('ol330')!
		const { batchId } = await generateBatch({ count: 6, format: 'pdf', layout: layout.id, nudgeXMm: -2, createdByUserId: owner.id })
		const codes = await batchCodes(batchId)
		const claimed = codes[2]!
		await db.update(qrCodes).set({ userId: owner.id, claimedAt: new Date() }).where(eq(qrCodes.id, claimed.id))
		const file = (await batchFile(batchId))!
		expect(file).toMatchObject({ fileName: `hmh-stickers-batch-${batchId}-5.pdf`, contentType: 'application/pdf' })
		const left = codes.filter((code) => code.id !== claimed.id)
		expect(await decodePdfRegions(file.body, labelRegions(layout, 5, { x: -2, y: 0 }))).toEqual(left.map((code) => [code.url]))
		const text = (await run('pdftotext', [await saved(file), '-'])).stdout
		expect(text).not.toContain(claimed.pin)
		for (const code of left) expect(text).toContain(`PIN ${code.pin}`)
		const summary = (await listBatches(50)).find((batch) => batch.id === batchId)
		expect(summary).toMatchObject({ count: 6, unclaimed: 5, reprintable: 5 })
	})

	test('a ZIP batch again: its CSV lists only the codes neither claimed nor sent out with an order', async () => {
		const { batchId } = await generateBatch({ count: 4, format: 'png', createdByUserId: owner.id })
		const codes = await batchCodes(batchId)
		await db.update(qrCodes).set({ userId: owner.id, claimedAt: new Date() }).where(eq(qrCodes.id, codes[0]!.id))
		const orderId = randomUUID()
		await db
			.insert(orders)
			.values({ id: orderId, confirmationNumber: `HMH-${orderId}`, customerEmail: owner.email, subtotalCents: 0, totalCents: 0 })
		await db.insert(orderAssignedCodes).values({ orderId, qrCodeId: codes[1]!.id })
		const file = (await batchFile(batchId))!
		expect(file.fileName).toBe(`hmh-stickers-batch-${batchId}-2.zip`)
		const { printed } = await readZip(await saved(file))
		expect(printed).toEqual(codes.slice(2))
		expect((await listBatches(50)).find((batch) => batch.id === batchId)).toMatchObject({ unclaimed: 3, reprintable: 2 })
	})

	test('null for an unknown batch; 409 once every code is claimed', async () => {
		expect(await batchFile(2_000_000_000)).toBeNull()
		expect(await batchFile(Number.NaN)).toBeNull()
		const { batchId } = await generateBatch({ count: 2, format: 'svg', createdByUserId: owner.id })
		await db.update(qrCodes).set({ userId: owner.id, claimedAt: new Date() }).where(eq(qrCodes.batchId, batchId))
		await expect(batchFile(batchId)).rejects.toMatchObject({ status: 409, message: ALL_CLAIMED })
		expect(ALL_CLAIMED).toBe('Every code of this batch has been claimed.')
	})
})

describe('listBatches', () => {
	test('newest first, with the creator’s e-mail and the unclaimed count', async () => {
		const first = await generateBatch({ count: 3, format: 'svg', createdByUserId: owner.id })
		const second = await generateBatch({ count: 2, format: 'pdf', layout: 'ol5375', createdByUserId: owner.id })
		const [claimed] = await batchCodes(second.batchId)
		await db.update(qrCodes).set({ userId: owner.id, claimedAt: new Date() }).where(eq(qrCodes.id, claimed!.id))
		const list = await listBatches()
		expect(list.length).toBeLessThanOrEqual(20)
		expect(list[0]).toMatchObject({ id: second.batchId, count: 2, format: 'pdf', layout: 'ol5375', createdBy: owner.email, unclaimed: 1 })
		expect(list[1]).toMatchObject({ id: first.batchId, count: 3, format: 'svg', layout: null, createdBy: owner.email, unclaimed: 3 })
		expect(list[0]!.createdAt).toBeInstanceOf(Date)
		expect(await listBatches(1)).toHaveLength(1)
	})
})

describe('calibrationFile', () => {
	test.each(['ol5375', 'a4-grid'])('%s: one page the size of the layout’s sheet, its outlines drawn', async (layoutId) => {
		const layout = layoutById(layoutId)!
		const file = await calibrationFile(layoutId, { x: 1, y: -1 })
		expect(file).toMatchObject({ fileName: `hmh-labels-calibration-${layoutId}.pdf`, contentType: 'application/pdf' })
		const info = await pdfInfo(file.body)
		expect(info.Pages).toBe('1')
		const [width, height] = /^([\d.]+) x ([\d.]+) pts/.exec(info['Page size']!)!.slice(1).map(Number)
		expect(width).toBeCloseTo(layout.pageWidthMm * PT_PER_MM, 1)
		expect(height).toBeCloseTo(layout.pageHeightMm * PT_PER_MM, 1)
		const text = (await run('pdftotext', [await saved(file), '-'])).stdout
		expect(text).toContain('Nudge: x +1 mm, y -1 mm')
	})

	test('an unknown layout or nudge is a 400', async () => {
		await expect(calibrationFile('nope', { x: 0, y: 0 })).rejects.toMatchObject({ status: 400, field: 'layout' })
		await expect(calibrationFile('ol5375', { x: 11, y: 0 })).rejects.toMatchObject({ status: 400, field: 'nudgeXMm' })
		await expect(calibrationFile('ol5375', { x: 0, y: 0.5 })).rejects.toMatchObject({ status: 400, field: 'nudgeYMm' })
	})
})
