import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { discounts } from '#db/schema.ts'
import type { Discount } from './pricing.ts'
import { CHECKOUT_MESSAGES } from './schemas.ts'

export async function findDiscount(code: string): Promise<Discount | null> {
	const row = await db.query.discounts.findFirst({
		where: and(
			eq(sql`upper(${discounts.code})`, code.trim().toUpperCase()),
			eq(discounts.active, true),
			or(isNull(discounts.expiresAt), gt(discounts.expiresAt, new Date())),
		),
	})
	return row
		? { code: row.code.toUpperCase(), type: row.type, value: row.value, description: row.description, marksFreeOrder: row.marksFreeOrder }
		: null
}

export async function validateDiscount(code: string) {
	const discount = await findDiscount(code)
	return discount ? { ok: true as const, discount } : { ok: false as const, message: CHECKOUT_MESSAGES.invalidDiscount }
}
