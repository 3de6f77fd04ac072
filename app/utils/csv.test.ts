import { describe, expect, test } from 'vitest'
import { csvCell, csvLine, csvResponse } from './csv.ts'

describe('CSV', () => {
	test('a cell a spreadsheet would run as a formula is neutralised', () => {
		for (const formula of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx'])
			expect(csvCell(formula).replace(/^"/, '').startsWith("'")).toBe(true)
		expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`)
	})

	test('quotes, commas and line breaks are quoted; plain values and numbers are left alone', () => {
		expect(csvCell('a,b')).toBe('"a,b"')
		expect(csvCell('line\nbreak')).toBe('"line\nbreak"')
		expect(csvCell('say "hi"')).toBe('"say ""hi"""')
		expect(csvCell(42)).toBe('42')
		expect(csvCell(-3)).toBe("'-3")
		expect(csvCell(null)).toBe('')
		expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n')
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
