/** Spec 002 §9: the payment method groups and their processing fees. Client-safe. */

export type PaymentFee = { percent: number; fixedCents: number }

export const STANDARD_FEE: PaymentFee = { percent: 2.9, fixedCents: 30 }
export const INTERNATIONAL_FEE: PaymentFee = { percent: 3.9, fixedCents: 30 }

export const PAYMENT_METHOD_NAMES = {
	card: 'Credit and debit cards',
	apple_pay: 'Apple Pay',
	google_pay: 'Google Pay',
	cashapp: 'Cash App Pay',
	link: 'Link',
	affirm: 'Affirm',
	afterpay_clearpay: 'Afterpay / Clearpay',
	klarna: 'Klarna',
	ideal: 'iDEAL',
	bancontact: 'Bancontact',
	eps: 'EPS',
	sofort: 'Sofort',
	pix: 'Pix',
} as const

export type PaymentMethod = keyof typeof PAYMENT_METHOD_NAMES

export const PAYMENT_METHOD_GROUPS: ReadonlyArray<{ id: string; title: string; fee: PaymentFee; methods: readonly PaymentMethod[] }> = [
	{ id: 'cards', title: 'Cards', fee: STANDARD_FEE, methods: ['card'] },
	{ id: 'wallets', title: 'Digital wallets', fee: STANDARD_FEE, methods: ['apple_pay', 'google_pay', 'cashapp', 'link'] },
	{ id: 'pay-later', title: 'Buy now, pay later', fee: STANDARD_FEE, methods: ['affirm', 'afterpay_clearpay', 'klarna'] },
	{ id: 'international', title: 'International', fee: INTERNATIONAL_FEE, methods: ['ideal', 'bancontact', 'eps', 'sofort', 'pix'] },
]

/** '2.9% + 30 cents', as the fee is written in the spec. */
export function feeText(fee: PaymentFee) {
	return `${fee.percent}% + ${fee.fixedCents} cents`
}
