import { and, eq, gt, isNull, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { discounts } from '#db/schema.ts'
import type { Discount } from './pricing.ts'
import { DomainError } from '#app/utils/errors.ts'
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

/** The discount a code names, or a 404 when no active discount has that code. */
export async function validateDiscount(code: string): Promise<Discount> {
	const discount = await findDiscount(code)
	if (!discount) throw new DomainError(404, CHECKOUT_MESSAGES.invalidDiscount)
	return discount
}
