import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFRef } from 'pdf-lib'
import { describe, expect, test } from 'vitest'
import { readPdf } from '#tests/cards.ts'
import { pdfWithScripts, SAMPLE_FILES } from '#tests/factories.ts'
import { pdfWithoutActions } from './pdf-actions.ts'
import { cleanPdf } from './pdf.server.ts'

const name = (key: string) => PDFName.of(key)
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1')
/** What gives a script away in a PDF's objects (none of them is inside a compressed stream in a cleaned file). */
const SCRIPT_MARKS = ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Launch', 'app.alert', 'calc.exe']

async function links(bytes: Uint8Array) {
	const doc = await PDFDocument.load(bytes)
	const annots = doc.getPage(0).node.lookup(name('Annots'), PDFArray)
	return annots.asArray().map((ref) => doc.context.lookup(ref as PDFRef, PDFDict).lookup(name('A')))
}

describe('pdfWithoutActions', () => {
	test('removes the open action, document scripts, page actions and a launching link; keeps the text and a web link', async () => {
		const scripted = await pdfWithScripts()
		const before = await PDFDocument.load(scripted)
		expect(before.catalog.has(name('OpenAction'))).toBe(true)

		const cleaned = (await pdfWithoutActions(scripted))!
		expect(cleaned).toBeInstanceOf(Uint8Array)
		const doc = await PDFDocument.load(cleaned)
		expect(doc.catalog.has(name('OpenAction'))).toBe(false)
		expect(doc.catalog.lookup(name('Names'), PDFDict).has(name('JavaScript'))).toBe(false)
		expect(doc.getPage(0).node.has(name('AA'))).toBe(false)
		const [launch, web] = await links(cleaned)
		expect(launch).toBeUndefined()
		expect(web).toBeInstanceOf(PDFDict)
		expect((web as PDFDict).get(name('S'))).toBe(name('URI'))
		expect((web as PDFDict).has(name('Next'))).toBe(false)
		// Not even unreachable: the removed scripts are gone from the file.
		for (const mark of SCRIPT_MARKS) expect(latin1(cleaned)).not.toContain(mark)

		const read = await readPdf(cleaned)
		expect(read.pages).toBe(1)
		expect(read.text).toContain('Do not resuscitate')
	})

	test('a PDF with nothing to remove is left as it is (null); one pdf-lib cannot read throws', async () => {
		const doc = await PDFDocument.create()
		doc.addPage().drawText('Plain')
		expect(await pdfWithoutActions(await doc.save())).toBeNull()
		expect(await pdfWithoutActions(new Uint8Array(await SAMPLE_FILES.pdf().arrayBuffer()))).toBeNull()
		const cutShort = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R')
		await expect(pdfWithoutActions(cutShort)).rejects.toThrow()
	})

	test('an encrypted PDF is not opened (it is stored as sent)', async () => {
		const source = latin1(await pdfWithScripts())
		const encrypt = '9999 0 obj\n<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>\nendobj\n'
		const at = source.lastIndexOf('trailer') >= 0 ? source.lastIndexOf('trailer') : source.lastIndexOf('startxref')
		const encrypted = `${source.slice(0, at)}${encrypt}trailer\n<< /Root 1 0 R /Encrypt 9999 0 R >>\n${source.slice(at)}`
		await expect(pdfWithoutActions(Buffer.from(encrypted, 'latin1'))).rejects.toThrow(/encrypted/i)
	})
})

describe('cleanPdf (on a renderer)', () => {
	test('answers the cleaned file; null for a file it cannot read or cannot clean in time', async () => {
		const scripted = await pdfWithScripts()
		const cleaned = await cleanPdf(scripted)
		expect(cleaned).toBeInstanceOf(Uint8Array)
		for (const mark of SCRIPT_MARKS) expect(latin1(cleaned!)).not.toContain(mark)
		expect(await cleanPdf(new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'))).toBeNull()
		expect(await cleanPdf(scripted, 1)).toBeNull()
	})
})
