import { randomUUID } from 'node:crypto'
import type { Database } from '../../db/client.ts'
import { consents, users } from '../../db/schema.ts'
import { currentConsentTexts } from '../../app/domain/consent/consent.server.ts'
import { hashPassword } from '../../app/utils/password.server.ts'

export const FIXTURE_PASSWORD = 'Fixture-pass-1!'

/**
 * Accounts made before the server starts, agreed to every current consent form: for the fuzz suite and the second
 * instances, grandfathered ones (`isGrandfathered`, who may generate their own QR codes), which no API makes, and ones
 * whose address counts as confirmed (`emailVerified`, as if a link sent to it had been opened).
 */
export async function createFixtureUsers(
	db: Database,
	count: number,
	options: { prefix?: string; isGrandfathered?: boolean; emailVerified?: boolean } = {},
) {
	const { prefix = 'person', isGrandfathered = false, emailVerified = false } = options
	const passwordHash = await hashPassword(FIXTURE_PASSWORD)
	const rows = Array.from({ length: count }, (_, i) => ({
		id: randomUUID(),
		email: `${prefix}${i}@e2e.example`,
		username: `${prefix}${i}`,
		firstName: `${prefix[0]!.toUpperCase()}${prefix.slice(1)}${i}`,
		lastName: 'Example',
		passwordHash,
		isGrandfathered,
		emailVerifiedAt: emailVerified ? new Date() : null,
	}))
	await db.insert(users).values(rows)
	const texts = await currentConsentTexts()
	await db.insert(consents).values(
		rows.flatMap((user) =>
			texts.map((t) => ({
				userId: user.id,
				consentType: t.consentType,
				version: t.version,
				agreed: true,
				ipAddress: '127.0.0.1',
				userAgent: 'e2e fixtures',
			})),
		),
	)
	return rows.map(({ email, firstName }) => ({ email, firstName, password: FIXTURE_PASSWORD }))
}
