// CSV as spreadsheets read it (RFC 4180, CRLF lines), safe to open: no cell runs as a formula.

export type CsvValue = string | number | boolean | null | undefined

/** A plain number: a spreadsheet reads it as that number, never as a formula (-12.00 stays -12.00). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i

/**
 * Where a spreadsheet may start a field: the cell's own start, and after every character it might split on instead
 * of the comma (semicolon, tab) or take as the end of a row (a line break inside the quotes, read without them). When
 * the first character there after spaces and quotes is = + - or @, an apostrophe before it makes the field text.
 */
const FIELD_START = /([,;\t\r\n]|^)([\s"]*)(?=[=+\-@])/g

/** Anything a reader could take for a separator, a quote or the start of a formula is kept inside quotes. */
const NEEDS_QUOTES = /[",;\t\r\n=+\-@]/

/**
 * One CSV cell. A finite number, or a text that is a plain number, is written as it is. Any other text is made safe
 * for a spreadsheet splitting on commas, semicolons or tabs: a formula character where a field could start (see
 * FIELD_START) gets an apostrophe before it, as does a leading tab or carriage return; then the text is quoted (its
 * quotes doubled) whenever it holds a quote, a separator, a line break or a formula character anywhere.
 */
export function csvCell(value: CsvValue) {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value)
	const text = value === null || value === undefined ? '' : String(value)
	if (PLAIN_NUMBER.test(text)) return text
	let safe = text.replace(FIELD_START, "$1$2'")
	if (/^[\t\r]/.test(safe)) safe = `'${safe}`
	return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}

/**
 * One line, CRLF-terminated. A reader splitting on semicolons or tabs takes the line up to the first one as a single
 * field, so a line that would start with a negative number and go on gets the apostrophe too.
 */
export function csvLine(cells: readonly CsvValue[]) {
	const line = cells.map(csvCell).join(',')
	return `${cells.length > 1 && line.startsWith('-') ? `'${line}` : line}\r\n`
}

/** A download of lines produced one by one (a large export never sits in memory whole). */
export function csvResponse(lines: AsyncIterable<string> | Iterable<string>, fileName: string) {
	const encoder = new TextEncoder()
	const iterator = (Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : lines[Symbol.iterator]()) as
		AsyncIterator<string> | Iterator<string>
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			let chunk = ''
			while (chunk.length < 64 * 1024) {
				const next = await iterator.next()
				if (next.done) {
					if (chunk) controller.enqueue(encoder.encode(chunk))
					controller.close()
					return
				}
				chunk += next.value
			}
			controller.enqueue(encoder.encode(chunk))
		},
		async cancel() {
			await iterator.return?.()
		},
	})
	return new Response(body, {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'private, no-store',
		},
	})
}
