import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseCsv } from '#tests/csv.ts'
import { csvCell, csvLine, csvResponse, type CsvValue } from './csv.ts'

/** A field a spreadsheet would run: its first character after spaces and quotes is = + - or @, and it is no plain number. */
function runsAsFormula(field: string) {
	const start = field.replace(/^[\s"]+/, '')
	if (!/^[=+\-@]/.test(start)) return false
	return !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(start.replace(/[\s"]+$/, ''))
}

/** The fields a spreadsheet may see in a text: split on this separator and on line breaks, quotes ignored. */
const naiveFields = (text: string, separator: string) => text.split(new RegExp(`[${separator}\\r\\n]`))

const SEPARATORS = [',', ';', '\t']

/** Texts made mostly of what matters here (formula characters, separators, quotes, spaces, digits), and any text. */
const anyText = fc.oneof(
	fc.string({
		unit: fc.constantFrom('=', '+', '-', '@', ',', ';', '\t', '\r', '\n', '"', "'", ' ', '\u00a0', 'a', '1', '.'),
		maxLength: 12,
	}),
	fc.string({ unit: 'binary-ascii' }),
	fc.string({ unit: 'grapheme' }),
)
const anyValue: fc.Arbitrary<CsvValue> = fc.oneof(
	anyText,
	fc.double(),
	fc.integer(),
	fc.constantFrom(null, undefined, true, false, '-12.00', '-5', '0.5'),
)

describe('CSV', () => {
	test('a cell a spreadsheet would run as a formula is neutralised', () => {
		for (const formula of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx'])
			expect(csvCell(formula).replace(/^"/, '').startsWith("'")).toBe(true)
		expect(csvCell(' =1')).toBe(`" '=1"`)
		expect(csvCell('"=1')).toBe(`"""'=1"`)
		expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`)
	})

	test('a formula after a semicolon, comma, tab or line break inside a cell is neutralised too, and the cell quoted', () => {
		expect(csvCell('Rosa;=1+1')).toBe(`"Rosa;'=1+1"`)
		expect(csvCell('a, -12 Elm')).toBe(`"a, '-12 Elm"`)
		expect(csvCell('x\t@cmd')).toBe(`"x\t'@cmd"`)
		expect(csvCell('line\n+1')).toBe(`"line\n'+1"`)
		expect(csvCell('a; "=1"')).toBe(`"a; ""'=1"""`)
		// A formula character that cannot start a field still keeps the cell in quotes.
		expect(csvCell('a-b')).toBe('"a-b"')
		expect(csvCell('x@example.com')).toBe('"x@example.com"')
	})

	test('quotes, separators and line breaks are quoted; plain values and numbers are left alone', () => {
		expect(csvCell('a,b')).toBe('"a,b"')
		expect(csvCell('a;b')).toBe('"a;b"')
		expect(csvCell('line\nbreak')).toBe('"line\nbreak"')
		expect(csvCell('say "hi"')).toBe('"say ""hi"""')
		expect(csvCell('plain text')).toBe('plain text')
		expect(csvCell(42)).toBe('42')
		expect(csvCell(-3)).toBe('-3')
		expect(csvCell(-0.5)).toBe('-0.5')
		expect(csvCell('-12.00')).toBe('-12.00')
		expect(csvCell(Number.NEGATIVE_INFINITY)).toBe(`"'-Infinity"`)
		expect(csvCell(null)).toBe('')
		expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n')
		expect(csvLine(['refund', -12])).toBe('refund,-12\r\n')
		expect(csvLine([-12])).toBe('-12\r\n')
		// Read with semicolons, the whole line up to the first one is a field: it must not start with a minus.
		expect(csvLine([-12, 'x'])).toBe("'-12,x\r\n")
	})

	test('no line has a field a spreadsheet would run, split on commas (by RFC 4180 or not), semicolons or tabs', () => {
		fc.assert(
			fc.property(fc.array(anyValue, { minLength: 1, maxLength: 5 }), (cells) => {
				const line = csvLine(cells)
				const [row, ...more] = parseCsv(line)
				expect(more).toEqual([])
				expect(row).toHaveLength(cells.length)
				for (const cell of row!) expect(runsAsFormula(cell), JSON.stringify(cell)).toBe(false)
				for (const separator of SEPARATORS)
					for (const field of naiveFields(line, separator))
						expect(runsAsFormula(field), `${separator}: ${JSON.stringify(field)}`).toBe(false)
			}),
			{ numRuns: 2000 },
		)
	})

	test('what a cell says is kept: only an apostrophe is added, where a field could start', () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const [[cell]] = parseCsv(csvLine([text])) as [[string]]
				let at = 0
				for (const char of cell.split('')) {
					if (char === text[at]) at++
					else expect(char).toBe("'")
				}
				expect(at).toBe(text.length)
			}),
			{ numRuns: 1000 },
		)
	})

	test('a response streams every line, as an attachment', async () => {
		async function* lines() {
			yield csvLine(['id'])
			for (let i = 0; i < 5000; i++) yield csvLine([i])
		}
		const response = csvResponse(lines(), 'x.csv')
		expect(response.headers.get('content-disposition')).toBe('attachment; filename="x.csv"')
		const text = await response.text()
		expect(text.split('\r\n')).toHaveLength(5002)
		expect(text.endsWith('4999\r\n')).toBe(true)
	})
})
