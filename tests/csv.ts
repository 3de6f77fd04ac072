/**
 * The rows of a CSV text, read by RFC 4180 (quoted fields may hold commas, doubled quotes and line breaks; every line
 * ends with CRLF). Anything else (a quote inside an unquoted field, text after a closing quote, a bare line break, a
 * last line without its CRLF) throws, so a test also proves the export is well formed.
 */
export function parseCsv(text: string) {
	const rows: string[][] = []
	let row: string[] = []
	let i = 0
	const fail = (what: string) => {
		throw new Error(`Not RFC 4180 CSV at ${i} (${what}): ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`)
	}
	while (i < text.length) {
		let cell = ''
		if (text[i] === '"') {
			i++
			for (;;) {
				if (i >= text.length) fail('unterminated quotes')
				if (text[i] !== '"') cell += text[i++]
				else if (text[i + 1] === '"') {
					cell += '"'
					i += 2
				} else {
					i++
					break
				}
			}
		} else {
			while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
				if (text[i] === '"' || text[i] === '\n') fail('a quote or line break outside quotes')
				cell += text[i++]
			}
		}
		row.push(cell)
		if (text[i] === ',') i++
		else if (text.startsWith('\r\n', i)) {
			rows.push(row)
			row = []
			i += 2
		} else fail('no separator or CRLF after a field')
	}
	if (row.length) fail('a last line without CRLF')
	return rows
}
