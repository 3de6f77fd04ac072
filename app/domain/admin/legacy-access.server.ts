import { desc, eq, ilike, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { auditLog, users } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'

export const LEGACY_ACCESS_ACTION = 'account.legacy-access'
export const ACCOUNT_NOT_FOUND = 'Account not found'
export const MAX_ACCOUNT_QUERY = 200
const MAX_RESULTS = 100

export type AccountMatch = { id: string; email: string; name: string | null; isGrandfathered: boolean; createdAt: Date }

/** The columns an account match is made from. */
const ACCOUNT_COLUMNS = {
	id: users.id,
	email: users.email,
	firstName: users.firstName,
	lastName: users.lastName,
	isGrandfathered: users.isGrandfathered,
	createdAt: users.createdAt,
}

type AccountRow = Omit<AccountMatch, 'name'> & { firstName: string | null; lastName: string | null }

function accountMatch({ firstName, lastName, ...row }: AccountRow): AccountMatch {
	return { ...row, name: [firstName, lastName].filter(Boolean).join(' ').trim() || null }
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * The owner's account search for granting legacy access: a case-insensitive substring of the e-mail, username, first
 * or last name, or "first last". An exact e-mail comes first, then the newest accounts. An empty query finds nothing.
 */
export async function findAccounts(query: string, limit = 20): Promise<AccountMatch[]> {
	const text = String(query ?? '')
		.trim()
		.slice(0, MAX_ACCOUNT_QUERY)
		.trim()
	if (!text) return []
	const pattern = `%${escapeLike(text)}%`
	const rows = await db
		.select(ACCOUNT_COLUMNS)
		.from(users)
		.where(
			or(
				ilike(users.email, pattern),
				ilike(users.username, pattern),
				ilike(users.firstName, pattern),
				ilike(users.lastName, pattern),
				sql`concat_ws(' ', ${users.firstName}, ${users.lastName}) ilike ${pattern}`,
			),
		)
		.orderBy(sql`lower(${users.email}) = ${text.toLowerCase()} desc`, desc(users.createdAt), desc(users.id))
		.limit(Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_RESULTS) : 20)
	return rows.map(accountMatch)
}

/**
 * Grants or withdraws legacy (grandfathered) access: the account may then generate its own QR codes (spec 002 §6;
 * app/domain/qr/manage.server.ts checks it; /api/activate-free-access only reports it). Audited, with who did it.
 */
export async function setLegacyAccess(userId: string, on: boolean, actorUserId: string | null) {
	return db.transaction(async (tx) => {
		const [user] = await tx
			.update(users)
			.set({ isGrandfathered: on })
			.where(eq(users.id, String(userId)))
			.returning(ACCOUNT_COLUMNS)
		if (!user) throw new DomainError(404, ACCOUNT_NOT_FOUND)
		await tx.insert(auditLog).values({
			actorUserId,
			action: LEGACY_ACCESS_ACTION,
			subjectType: 'user',
			subjectId: user.id,
			details: { on },
		})
		return accountMatch(user)
	})
}
