import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from './client.ts'
import { consentTexts, discounts, products, users } from './schema.ts'
import { CONSENT_TEXTS } from './seed-content.ts'

const stickerSizes = [
	{ id: 'extra-small', label: 'Extra small (1.5x1.5 in)' },
	{ id: 'small', label: 'Small (2x2 in)' },
	{ id: 'large', label: 'Large (3x3 in)' },
]

/** Spec 002 §3: the shop's four items and the request page's three (the acrylic card is in both). */
export const CATALOGUE: Array<typeof products.$inferInsert> = [
	{
		id: 1,
		name: 'Medical Alert Stickers',
		description: 'Weatherproof vinyl stickers with your medical QR code.',
		category: 'sticker',
		priceCents: 0,
		supportsSticker: false,
		sizes: stickerSizes,
		onRequestPage: true,
		sortOrder: 10,
	},
	{
		id: 2,
		name: 'Small Medical QR Sticker (2x2 in)',
		description: 'A 2x2 inch vinyl sticker for phones, helmets and wallets.',
		category: 'sticker',
		priceCents: 500,
		supportsTransparent: true,
		inShop: true,
		sortOrder: 20,
	},
	{
		id: 3,
		name: 'Large Medical QR Sticker (3x3 in)',
		description: 'A 3x3 inch vinyl sticker for car windows, doors and bags.',
		category: 'sticker',
		priceCents: 800,
		supportsTransparent: true,
		inShop: true,
		sortOrder: 30,
	},
	{
		id: 4,
		name: 'Medical Alert Card - Acrylic',
		description: 'A wallet-size acrylic card with an engraved QR code; a coloured QR sticker may replace the engraving.',
		category: 'card',
		priceCents: 1000,
		engraved: true,
		supportsSticker: true,
		supportsTransparent: true,
		inShop: true,
		onRequestPage: true,
		sortOrder: 40,
	},
	{
		id: 5,
		name: '911 Emergency Notification Stickers',
		description: 'High-visibility stickers telling responders where to scan.',
		category: 'sticker',
		priceCents: 0,
		sizes: stickerSizes,
		onRequestPage: true,
		sortOrder: 50,
	},
	{
		id: 6,
		name: 'Medical Alert Card - Metal',
		description: 'A durable wallet-size metal card with an engraved QR code.',
		category: 'card',
		priceCents: 1500,
		engraved: true,
		supportsSticker: true,
		inShop: true,
		sortOrder: 60,
	},
]

export const DISCOUNTS: Array<typeof discounts.$inferInsert> = [
	{ code: 'FREE72', type: 'percentage', value: 100, description: 'Free order: 100% off, shipping included', marksFreeOrder: true },
]

/** The demo account, made with the app's own password hashing (app/utils/password.server.ts), handed in. */
export type DemoAccount = { hashPassword: (password: string) => Promise<string> }

/** Idempotent: safe on every start. Version 1 consent texts are inserted only once. */
export async function seed(db: Database, options: { demo?: DemoAccount } = {}) {
	for (const product of CATALOGUE) {
		await db.insert(products).values(product).onConflictDoUpdate({ target: products.id, set: product })
	}
	for (const discount of DISCOUNTS) {
		await db.insert(discounts).values(discount).onConflictDoNothing()
	}
	for (const text of CONSENT_TEXTS) {
		await db
			.insert(consentTexts)
			.values({ ...text, version: 1 })
			.onConflictDoNothing()
	}
	if (options.demo) await seedDemoAccount(db, options.demo)
}

export const DEMO_EMAIL = 'demo@hitmehelpers.local'
export const DEMO_PASSWORD = 'Demo-password-1!'

async function seedDemoAccount(db: Database, { hashPassword }: DemoAccount) {
	await db
		.insert(users)
		.values({
			id: randomUUID(),
			email: DEMO_EMAIL,
			username: 'demo',
			firstName: 'Demo',
			lastName: 'User',
			passwordHash: await hashPassword(DEMO_PASSWORD),
		})
		.onConflictDoNothing()
}

export async function isEmpty(db: Database) {
	const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(products)
	return (row?.n ?? 0) === 0
}
