import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, type PDFContext, type PDFObject } from 'pdf-lib'

/** What runs by itself when a document, page, field or annotation is opened, changed or printed, or carries script. */
const REMOVED_KEYS = ['OpenAction', 'AA', 'JS', 'JavaScript', 'XFA', 'NeedsRendering'].map((key) => PDFName.of(key))
/** Where a link, bookmark or earlier action names the action it starts. */
const ACTION_KEYS = ['A', 'Next'].map((key) => PDFName.of(key))
/** Actions a link or bookmark may keep: go to a page, open a web address (both on a click), a viewer command. */
const KEPT_ACTIONS = new Set(['GoTo', 'URI', 'Named'].map((type) => PDFName.of(type)))
const TYPE = PDFName.of('S')

/**
 * The PDF without what a reader would run: the open action, every additional action, JavaScript (document scripts,
 * script actions), XFA forms, and any link or bookmark action other than going to a page or a web address (launching
 * a program, submitting or importing form data, opening another file…); the objects nothing points at any more go too.
 * Null when there was nothing to remove; throws when pdf-lib cannot read the file (an encrypted or broken PDF).
 */
export async function pdfWithoutActions(bytes: Uint8Array): Promise<Uint8Array | null> {
	const doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false })
	let removed = 0
	for (const dict of dictionaries(doc.context.enumerateIndirectObjects().map(([, object]) => object))) {
		for (const key of REMOVED_KEYS) if (dict.delete(key)) removed++
		for (const key of ACTION_KEYS) {
			const action = dict.lookup(key)
			if (action instanceof PDFDict && !KEPT_ACTIONS.has(action.get(TYPE) as PDFName)) {
				dict.delete(key)
				removed++
			}
		}
	}
	if (!removed) return null
	dropUnreachable(doc.context)
	// No object streams: what was kept stays readable in the file; nothing else about the document changes.
	return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false })
}

/** Every dictionary in these objects, nested ones too (a stream's own included), each once; references not followed. */
function* dictionaries(roots: PDFObject[]) {
	const seen = new Set<PDFDict>()
	const stack = [...roots]
	while (stack.length) {
		const object = stack.pop()
		if (object instanceof PDFStream) stack.push(object.dict)
		else if (object instanceof PDFArray) for (const item of object.asArray()) stack.push(item)
		else if (object instanceof PDFDict && !seen.has(object)) {
			seen.add(object)
			yield object
			// Read after the caller changed it: what it removed is not visited.
			for (const value of object.values()) if (!(value instanceof PDFRef)) stack.push(value)
		}
	}
}

/** Removes the objects the document no longer reaches from its trailer (the removed scripts among them). */
function dropUnreachable(context: PDFContext) {
	const reached = new Set<PDFRef>()
	const stack: Array<PDFObject | undefined> = [context.trailerInfo.Root, context.trailerInfo.Info]
	while (stack.length) {
		const object = stack.pop()
		if (object instanceof PDFRef) {
			if (reached.has(object)) continue
			reached.add(object)
			stack.push(context.lookup(object))
		} else if (object instanceof PDFStream) stack.push(object.dict)
		else if (object instanceof PDFArray) for (const item of object.asArray()) stack.push(item)
		else if (object instanceof PDFDict) for (const value of object.values()) stack.push(value)
	}
	for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref)) context.delete(ref)
}
