import { AlignmentType, BorderStyle, Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx'
import JSZip from 'jszip'
import { pinLine, pngName, type BatchCode } from './batch-code.ts'
import { qrPng } from './qr-png.server.ts'
import { escapeMarkup } from '#app/utils/escape.ts'

/** The Word table shows each code 1.75 in wide (docx measures images in 96-dpi pixels): about 240 dpi. */
const DOCX_PNG_WIDTH = 400
const DOCX_IMAGE_PX = 168

/** 96-dpi pixels (docx's unit for images) to EMU. */
const EMU_PER_PX = 9525
const IMAGE_SLOT = /<w:r>(?:<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">@@code-image-(\d+)@@<\/w:t><\/w:r>/g

/**
 * Spec 002 §9: two codes a row; each cell holds the code, its PIN and the code's id. docx lays out the document; the
 * images go in afterwards, in one pass: docx itself places each image by searching the whole document once per image,
 * which took 9 to 13 s for 1000 codes.
 */
export async function buildDocx(codes: readonly BatchCode[], { title }: { title?: string } = {}) {
	const none = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' }
	const cell = (index: number) => {
		const code = codes[index]
		const children = code
			? [
					new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun(`@@code-image-${index}@@`)] }),
					new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ text: pinLine(code.pin), bold: true, size: 28 })] }),
					new Paragraph({
						alignment: AlignmentType.CENTER,
						spacing: { after: 240 },
						children: [new TextRun({ text: `Code ${code.id}`, size: 18, color: '555555' })],
					}),
				]
			: [new Paragraph('')]
		return new TableCell({ width: { size: 50, type: WidthType.PERCENTAGE }, children })
	}
	const rows: TableRow[] = []
	for (let i = 0; i < codes.length; i += 2) rows.push(new TableRow({ cantSplit: true, children: [cell(i), cell(i + 1)] }))
	const doc = new Document({
		title: title ?? 'Sticker codes',
		creator: 'Hit Me Helpers',
		sections: [
			{
				children: [
					new Table({
						width: { size: 100, type: WidthType.PERCENTAGE },
						borders: { top: none, bottom: none, left: none, right: none, insideHorizontal: none, insideVertical: none },
						rows,
					}),
				],
			},
		],
	})
	const zip = await JSZip.loadAsync(await Packer.toArrayBuffer(doc))
	const documentXml = await zip.file('word/document.xml')!.async('string')
	const relations: string[] = []
	const filled = documentXml.replace(IMAGE_SLOT, (_, index: string) => {
		const code = codes[Number(index)]!
		const rId = `rIdCode${code.id}`
		const target = `media/${pngName(code)}`
		zip.file(`word/${target}`, qrPng(code.scanUrl, DOCX_PNG_WIDTH), { compression: 'STORE', createFolders: false })
		relations.push(`<Relationship Id="${rId}" Type="${IMAGE_RELATIONSHIP}" Target="${target}"/>`)
		return inlineImage(rId, Number(index) + 1, code)
	})
	if (relations.length !== codes.length) throw new Error(`The Word layout holds ${relations.length} of ${codes.length} codes`)
	zip.file('word/document.xml', filled)
	const rels = await zip.file('word/_rels/document.xml.rels')!.async('string')
	zip.file('word/_rels/document.xml.rels', rels.replace('</Relationships>', `${relations.join('')}</Relationships>`))
	const types = await zip.file('[Content_Types].xml')!.async('string')
	if (!/Extension="png"/.test(types))
		zip.file('[Content_Types].xml', types.replace('<Default ', '<Default ContentType="image/png" Extension="png"/><Default '))
	return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })
}

const IMAGE_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image'

/** The picture markup docx writes for an inline image (namespaces wp and r are declared on the document). */
function inlineImage(rId: string, id: number, code: BatchCode) {
	const emu = DOCX_IMAGE_PX * EMU_PER_PX
	const a = 'http://schemas.openxmlformats.org/drawingml/2006/main'
	const pic = 'http://schemas.openxmlformats.org/drawingml/2006/picture'
	return (
		`<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${emu}" cy="${emu}"/>` +
		`<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="${id}" name="Code ${code.id}" descr="QR code for ${escapeMarkup(code.scanUrl)}"/>` +
		`<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
		`<a:graphic xmlns:a="${a}"><a:graphicData uri="${pic}"><pic:pic xmlns:pic="${pic}">` +
		`<pic:nvPicPr><pic:cNvPr id="0" name="${pngName(code)}"/><pic:cNvPicPr><a:picLocks noChangeAspect="1"/></pic:cNvPicPr></pic:nvPicPr>` +
		`<pic:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
		`<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${emu}" cy="${emu}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
		`</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`
	)
}
