import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { CARD_SCAN_URL, fullCardProfile, manyAllergies, pngSize } from '#tests/cards.ts'
import { decodeQr } from '#tests/zbar.ts'
import { cardFacts } from './facts.ts'
import { CLOCK_SHARE, CONTROLS_SHARE, lockScreenSvg, renderLockScreenPng } from './lock-screen.server.ts'
import { LOCK_SCREEN_SIZES } from './options.ts'

const BACKGROUND = [0x0f, 0x17, 0x2a]

/** Rows of the image in which some pixel is not the background: where the clock and the controls go, none may be. */
async function drawnRows(png: Uint8Array) {
	const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
	const rows = new Set<number>()
	for (let y = 0; y < info.height; y++)
		for (let x = 0; x < info.width; x++) {
			const i = (y * info.width + x) * 3
			if (data[i] !== BACKGROUND[0] || data[i + 1] !== BACKGROUND[1] || data[i + 2] !== BACKGROUND[2]) {
				rows.add(y)
				break
			}
		}
	return { first: Math.min(...rows), last: Math.max(...rows), height: info.height }
}

/** Each line of text in the SVG and where its baseline sits, in pixels. */
const svgLines = (svg: string) =>
	[...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)"[^>]*>(.*?)<\/text>/g)].map((m) => ({ y: Number(m[1]), text: m[2]! }))

describe('the lock-screen PNG', () => {
	test.each(LOCK_SCREEN_SIZES.map((s) => [s.width, s.height]))(
		'%i×%i: that size, its QR decodes to the scan URL, the clock’s and the controls’ areas left free',
		async (width, height) => {
			const png = await renderLockScreenPng({ facts: cardFacts(fullCardProfile(), 'en'), scanUrl: CARD_SCAN_URL, width, height })
			expect(pngSize(png)).toEqual({ width, height })
			expect(await decodeQr(Buffer.from(png))).toBe(CARD_SCAN_URL)
			const rows = await drawnRows(png)
			expect(rows.first).toBeGreaterThanOrEqual(Math.floor(height * CLOCK_SHARE))
			expect(rows.last).toBeLessThan(Math.ceil(height * (1 - CONTROLS_SHARE)))
		},
	)

	test('the critical facts, in large type: name, code status, flags, allergies, medications and one contact', () => {
		const svg = lockScreenSvg({ facts: cardFacts(fullCardProfile(), 'en'), scanUrl: CARD_SCAN_URL, width: 1170, height: 2532 })
		const text = svgLines(svg).map((l) => l.text)
		for (const line of [
			'Maria Santos',
			'DNR: Do Not Resuscitate',
			'CRITICAL',
			'Anticoagulant / blood thinner: Warfarin',
			'ALLERGIES',
			'MEDICATIONS',
			'Warfarin 5 mg, daily',
			'CALL',
			'Luis Santos (Son)',
			'+1 (555) 010-0200',
			'Scan for full information',
		])
			expect(text).toContain(line)
		expect(text).not.toContain('Ana Ferreira (Daughter)')
		const name = /<text[^>]*font-size="([\d.]+)"[^>]*>Maria Santos</.exec(svg)
		// 26 points on a 390-point-wide phone, drawn at 3 pixels a point.
		expect(Number(name?.[1])).toBeGreaterThanOrEqual(75)
	})

	test('in Spanish, with its labels', () => {
		const svg = lockScreenSvg({ facts: cardFacts(fullCardProfile(), 'es'), scanUrl: CARD_SCAN_URL, width: 1080, height: 2400 })
		const text = svgLines(svg).map((l) => l.text)
		for (const line of ['DNR: No reanimar', 'ALERGIAS', 'MEDICAMENTOS', 'LLAMAR A', 'INFORMACIÓN MÉDICA DE EMERGENCIA'])
			expect(text).toContain(line)
	})

	test('30 allergies: "+N more: scan the code", every allergy counted, every line inside the card', async () => {
		const width = 1170
		const height = 2532
		const facts = cardFacts(fullCardProfile({ allergies: manyAllergies(30) }), 'en')
		const lines = svgLines(lockScreenSvg({ facts, scanUrl: CARD_SCAN_URL, width, height }))
		const shown = lines.filter((l) => /^Pollen variety \d+/.test(l.text)).length
		const heading = lines.findIndex((l) => l.text === 'ALLERGIES')
		const more = lines
			.slice(heading)
			.map((l) => /^\+(\d+) more: scan the code$/.exec(l.text))
			.find(Boolean)
		expect(more).toBeTruthy()
		expect(shown).toBeGreaterThan(0)
		expect(shown + Number(more![1])).toBe(30)
		for (const line of lines) {
			expect(line.y).toBeGreaterThan(height * CLOCK_SHARE)
			expect(line.y).toBeLessThan(height * (1 - CONTROLS_SHARE))
		}
		const png = await renderLockScreenPng({ facts, scanUrl: CARD_SCAN_URL, width, height })
		expect(await decodeQr(Buffer.from(png))).toBe(CARD_SCAN_URL)
	})

	test('text that is not XML (a control character, a lone surrogate) is dropped, and the image still renders', async () => {
		const facts = cardFacts(fullCardProfile({ fullName: 'Maria\u0001 Santos\ud800 <&>' }), 'en')
		expect(facts.name).toBe('Maria  Santos  <&>')
		const png = await renderLockScreenPng({ facts, scanUrl: CARD_SCAN_URL, width: 1080, height: 2400 })
		expect(pngSize(png)).toEqual({ width: 1080, height: 2400 })
	})
})
