import { describe, expect, test } from 'vitest'
import { contrastRatio, customTextStatus, DEFAULT_QR_COLOR, QR_COLORS, TEXT_COLORS, withContrast } from './palette.ts'
import { QrCustomizationSchema } from './schemas.ts'

describe('palette', () => {
	test('is the ten colours of spec 001 §9, and text adds Black and White', () => {
		expect(QR_COLORS.map((c) => `${c.name} ${c.hex}`)).toEqual([
			'Medical Red #DC2626',
			'Medical Blue #2563EB',
			'Medical Green #16A34A',
			'Medical Purple #9333EA',
			'Medical Pink #EC4899',
			'Medical Orange #EA580C',
			'Classic Black #000000',
			'Emergency Orange #F97316',
			'Healthcare Blue #0EA5E9',
			'Safety Green #10B981',
		])
		expect(TEXT_COLORS.slice(-2)).toEqual([
			{ name: 'Black', hex: '#000000' },
			{ name: 'White', hex: '#FFFFFF' },
		])
		expect(DEFAULT_QR_COLOR).toBe('#DC2626')
	})

	test('contrast ratios follow WCAG', () => {
		expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21)
		expect(contrastRatio('#FFFFFF', '#FFFFFF')).toBe(1)
		expect(contrastRatio('#10B981', '#FFFFFF')).toBeCloseTo(2.54, 2)
	})

	test('withContrast darkens only colours below the ratio', () => {
		expect(withContrast('#dc2626', '#FFFFFF', 2.5)).toBe('#DC2626')
		const yellow = withContrast('#FFFF00', '#FFFFFF', 2.5)
		expect(contrastRatio(yellow, '#FFFFFF')).toBeGreaterThanOrEqual(2.5)
		expect(contrastRatio(yellow, '#FFFFFF')).toBeLessThan(2.7)
	})
})

describe('customTextStatus (spec 002 §5: 25 typed characters, 16 letters)', () => {
	test.each([
		['', true, 0, 0, 'Valid: 0/16 letters'],
		['DNR ON FILE', true, 9, 11, 'Valid: 9/16 letters'],
		['ALLERGIC TO SULFA', true, 15, 17, 'Valid: 15/16 letters'],
		['ABCDEFGHIJKLMNOP', true, 16, 16, 'Valid: 16/16 letters'],
		['PACEMAKER ALLERGY 1234567', true, 16, 25, 'Valid: 16/16 letters'],
		['ABCDEFGH 12345678 IJKLMNOP', false, 16, 26, 'Too long: 26/25 characters'],
		['ABCDEFGHIJKLMNOPQ', false, 17, 17, 'Too long: 17/16 letters'],
		['ALLERGIC TO PENICILLIN', false, 20, 22, 'Too long: 20/16 letters'],
		['1234567890 1234567890 123', true, 0, 25, 'Valid: 0/16 letters'],
		['A'.repeat(30), false, 30, 30, 'Too long: 30/25 characters'],
		['NO NUTS!', true, 7, 8, 'Valid: 7/16 letters'],
	])('%j', (text, valid, letters, length, message) => {
		expect(customTextStatus(text)).toEqual({ valid, letters, length, message })
	})

	test('counts what a person sees as one character', () => {
		expect(customTextStatus('E\u0301PILEPSIE ❤️')).toMatchObject({ valid: true, letters: 10, length: 11 })
	})
})

describe('QrCustomizationSchema', () => {
	test('defaults: Medical Red, black text, circular, opaque, 400 wide with margin 3', () => {
		expect(QrCustomizationSchema.parse({})).toEqual({
			color: '#DC2626',
			textColor: '#000000',
			circular: true,
			customText: undefined,
			transparentBackground: false,
			width: 400,
			margin: 3,
		})
	})

	test('accepts every palette colour, in any case', () => {
		for (const { hex } of QR_COLORS) expect(QrCustomizationSchema.parse({ color: hex.toLowerCase() }).color).toBe(hex)
		for (const { hex } of TEXT_COLORS) expect(QrCustomizationSchema.parse({ textColor: hex }).textColor).toBe(hex)
	})

	test.each([{ color: '#FFFFFF' }, { color: '#123456' }, { color: 'red' }, { textColor: '#FFFF00' }, { color: 42 }])(
		'refuses %j',
		(input) => {
			expect(QrCustomizationSchema.safeParse(input).success).toBe(false)
		},
	)

	test('custom text follows the 25/16 rule, with its message', () => {
		const parse = (customText: string) => QrCustomizationSchema.safeParse({ customText })
		expect(parse('PACEMAKER ALLERGY 1234567').data?.customText).toBe('PACEMAKER ALLERGY 1234567')
		expect(parse('ABCDEFGHIJKLMNOPQ').error?.issues[0]?.message).toBe('Too long: 17/16 letters')
		expect(parse('ABCDEFGH 12345678 IJKLMNOP').error?.issues[0]?.message).toBe('Too long: 26/25 characters')
		expect(parse('LINE\nBREAK').success).toBe(false)
		expect(parse('   ').data?.customText).toBeUndefined()
		expect(parse('  ON WARFARIN ').data?.customText).toBe('ON WARFARIN')
	})

	test('booleans and sizes', () => {
		expect(QrCustomizationSchema.parse({ circular: false, transparentBackground: true })).toMatchObject({
			circular: false,
			transparentBackground: true,
		})
		expect(QrCustomizationSchema.safeParse({ circular: 'yes' }).success).toBe(false)
		expect(QrCustomizationSchema.safeParse({ width: 5000 }).success).toBe(false)
		expect(QrCustomizationSchema.safeParse({ margin: 0 }).success).toBe(false)
	})
})
