import { randomUUID } from 'node:crypto'
import type { Database } from '../../db/client.ts'
import { users } from '../../db/schema.ts'
import { hashPassword } from '../../app/utils/password.server.ts'

export const FIXTURE_PASSWORD = 'Fixture-pass-1!'

export async function createFixtureUsers(db: Database, count: number) {
	const passwordHash = await hashPassword(FIXTURE_PASSWORD)
	const rows = Array.from({ length: count }, (_, i) => ({
		id: randomUUID(),
		email: `person${i}@e2e.example`,
		username: `person${i}`,
		firstName: `Person${i}`,
		lastName: 'Example',
		passwordHash,
	}))
	await db.insert(users).values(rows)
	return rows.map(({ email, firstName }) => ({ email, firstName, password: FIXTURE_PASSWORD }))
}
