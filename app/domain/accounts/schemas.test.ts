import { describe, expect, test } from 'vitest'
import { passwordFailures, passwordStrength, PinSchema, SignupSchema } from './schemas.ts'

describe('password rules', () => {
	test('lists every rule a password breaks, with the spec messages', () => {
		expect(passwordFailures('abc')).toEqual([
			'Password must be at least 8 characters long',
			'Password must contain at least one number',
			'Password must contain at least one special character',
		])
		expect(passwordFailures('abcdefg1')).toEqual(['Password must contain at least one special character'])
		expect(passwordFailures('abcdefg1!')).toEqual([])
	})

	test('strength: one point per criterion, capped at 4, with its label and colour', () => {
		expect(passwordStrength('')).toMatchObject({ score: 0, label: 'Very Weak', colour: 'red' })
		expect(passwordStrength('abcdefgh')).toMatchObject({ score: 1, label: 'Weak', colour: 'red' })
		expect(passwordStrength('abcdefg1')).toMatchObject({ score: 2, label: 'Fair', colour: 'yellow' })
		expect(passwordStrength('abcdefg1!')).toMatchObject({ score: 3, label: 'Good', colour: 'green' })
		expect(passwordStrength('Abcdefghij1!')).toMatchObject({ score: 4, label: 'Strong', colour: 'green' })
	})
})

describe('signup schema', () => {
	const valid = { username: 'ada', email: 'Ada@Example.com', password: 'abcdefg1!', consent: 'on' }

	test('accepts a valid signup and lower-cases the e-mail', () => {
		const parsed = SignupSchema.parse(valid)
		expect(parsed.email).toBe('ada@example.com')
	})

	test.each([
		[{ username: 'ab' }, 'Username must be at least 3 characters'],
		[{ username: 'a'.repeat(51) }, 'Username must be less than 50 characters'],
		[{ email: 'not-an-email' }, 'Please enter a valid email address'],
		[{ consent: undefined }, 'You must agree to the terms to continue'],
		[{ password: 'short' }, 'Password must be at least 8 characters long'],
	])('%o is refused with "%s"', (change, message) => {
		const result = SignupSchema.safeParse({ ...valid, ...change })
		expect(result.success).toBe(false)
		expect(result.error?.issues.map((i) => i.message)).toContain(message)
	})

	test('a 50-character username is allowed', () => {
		expect(SignupSchema.safeParse({ ...valid, username: 'a'.repeat(50) }).success).toBe(true)
	})
})

describe('PIN schema', () => {
	test('upper-cases and requires exactly 8 characters', () => {
		expect(PinSchema.parse({ pin: ' abcd2345 ' }).pin).toBe('ABCD2345')
		for (const pin of ['ABC', 'ABCD23456', ''])
			expect(PinSchema.safeParse({ pin }).error?.issues[0]?.message).toBe('Please enter an 8-character PIN')
	})
})
