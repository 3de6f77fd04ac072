import { z } from 'zod'

export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>'

export const passwordRules = [
	{ test: (p: string) => p.length >= 8, message: 'Password must be at least 8 characters long' },
	{ test: (p: string) => /\d/.test(p), message: 'Password must contain at least one number' },
	{ test: (p: string) => /[!@#$%^&*(),.?":{}|<>]/.test(p), message: 'Password must contain at least one special character' },
] as const

export function passwordFailures(password: string) {
	return passwordRules.filter((rule) => !rule.test(password)).map((rule) => rule.message)
}

export const STRENGTH_LABELS = ['Very Weak', 'Weak', 'Fair', 'Good', 'Strong'] as const

/** One point each for length >= 8, length >= 12, a digit, a special character and mixed case; capped at 4. */
export function passwordStrength(password: string) {
	let score = 0
	if (password.length >= 8) score++
	if (password.length >= 12) score++
	if (/\d/.test(password)) score++
	if (/[!@#$%^&*(),.?":{}|<>]/.test(password)) score++
	if (/[a-z]/.test(password) && /[A-Z]/.test(password)) score++
	score = Math.min(score, 4)
	const colour = score <= 1 ? 'red' : score === 2 ? 'yellow' : 'green'
	return { score, label: STRENGTH_LABELS[score]!, colour } as const
}

export const PasswordSchema = z
	.string({ error: 'Password must be at least 8 characters long' })
	.max(200, 'Password must be at most 200 characters')
	.superRefine((value, ctx) => {
		for (const message of passwordFailures(value)) ctx.addIssue({ code: 'custom', message })
	})

export const EmailSchema = z
	.string({ error: 'Please enter a valid email address' })
	.trim()
	.max(254, 'Please enter a valid email address')
	.pipe(z.email('Please enter a valid email address'))
	.transform((v) => v.toLowerCase())

export const UsernameSchema = z
	.string({ error: 'Username must be at least 3 characters' })
	.trim()
	.min(3, 'Username must be at least 3 characters')
	.max(50, 'Username must be less than 50 characters')

export const SignupSchema = z.object({
	username: UsernameSchema,
	email: EmailSchema,
	password: PasswordSchema,
	consent: z
		.union([z.boolean(), z.literal('on'), z.literal('true')], { error: 'You must agree to the terms to continue' })
		.refine((v) => v === true || v === 'on' || v === 'true', 'You must agree to the terms to continue'),
})

export const LoginSchema = z.object({
	email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(254).toLowerCase(),
	password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
	redirectTo: z.string().max(2000).optional(),
})

export const PIN_LENGTH = 8
/** Printed PINs avoid 0/O/1/I/L so they can be read off a sticker. */
export const PIN_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'

export const PinSchema = z.object({
	pin: z.string({ error: 'Please enter an 8-character PIN' }).trim().toUpperCase().length(PIN_LENGTH, 'Please enter an 8-character PIN'),
})

const nameField = (label: string) =>
	z
		.string()
		.trim()
		.max(50, `${label} must be at most 50 characters`)
		.optional()
		.transform((v) => v || null)

export const ProfileNameSchema = z.object({ firstName: nameField('First name'), lastName: nameField('Last name') })

export const EMAIL_REQUIRED = 'Email is required'
export const EMAIL_UNCHANGED = 'The new email must be different from your current email'

export const ChangeEmailSchema = z.object({
	email: z.string({ error: EMAIL_REQUIRED }).trim().min(1, EMAIL_REQUIRED).max(254, 'Please enter a valid email address').pipe(EmailSchema),
})

/** The page that confirms an e-mail change: whether to end the account's other sessions too. */
export const ConfirmEmailChangeSchema = z.object({
	token: z.string({ error: 'This link is not valid' }).trim().min(1, 'This link is not valid').max(200, 'This link is not valid'),
	endOtherSessions: z.boolean().optional(),
})

/** Linking a sign-in from the identity provider to an existing account: the account's password proves it is yours. */
export const LinkAccountSchema = z.object({
	password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
})
