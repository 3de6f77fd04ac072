// CSV as spreadsheets read it (RFC 4180, CRLF lines), safe to open: no cell runs as a formula.

export type CsvValue = string | number | boolean | null | undefined

/**
 * One CSV cell: a text a spreadsheet would run as a formula (= + - @, or a tab or carriage return first) gets a
 * leading apostrophe; a cell with a quote, comma or line break is quoted, its quotes doubled.
 */
export function csvCell(value: CsvValue) {
	let text = value === null || value === undefined ? '' : String(value)
	if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvCell).join(',')}\r\n`

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
