import { randomUUID } from 'node:crypto'
import * as kit from './bench-kit.ts'

/*
 * The load test's people, seeded with the app's own modules (as the benchmarks do): each has an account, a medical
 * profile with allergies and medications, and one sticker code claimed by PIN and linked to that profile (active).
 * DATABASE_URL must be set before this module is loaded: the app's database client reads it once.
 */

export const PASSWORD = 'Load-test-password-1!'

export type Person = { userId: string; email: string; codeId: number; token: string }

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T, R>(items: T[], width: number, work: (item: T, index: number) => Promise<R>) {
	const results: R[] = new Array(items.length)
	let next = 0
	await Promise.all(
		Array.from({ length: Math.min(width, items.length) }, async () => {
			for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!, i)
		}),
	)
	return results
}

export async function seedPeople(count: number): Promise<Person[]> {
	return kit.withAppDatabase(async (db) => {
		const { users } = await import('#db/schema.ts')
		const { hashPassword } = await import('#app/utils/password.server.ts')
		const { savePersonalInfo } = await import('#app/domain/profiles/profiles.server.ts')
		const { addRow } = await import('#app/domain/profiles/sections.server.ts')
		const s = await import('#app/domain/profiles/schemas.ts')
		const { createStickerCodes } = await import('#app/domain/qr/codes.server.ts')
		const { claimCode } = await import('#app/domain/claims/claims.server.ts')

		// One hash for everyone (as tests/factories.ts inserts accounts): seeding stays quick; each sign-in still checks it.
		const passwordHash = await hashPassword(PASSWORD)
		const accounts = Array.from({ length: count }, (_, i) => ({
			id: randomUUID(),
			username: `load${i}`,
			email: `load${i}@example.com`,
			passwordHash,
			firstName: 'Load',
			lastName: `Person ${i}`,
		}))
		for (let i = 0; i < accounts.length; i += 500) await db.insert(users).values(accounts.slice(i, i + 500))
		const codes = await createStickerCodes(count)
		return await inParallel(accounts, 8, async (account, i) => {
			const { profile } = await savePersonalInfo(
				account.id,
				s.PersonalInfoSchema.parse({
					firstName: 'Load',
					lastName: `Person ${i}`,
					dateOfBirth: '1960-03-14',
					bloodType: 'O+',
					phoneNumber: '+1 (555) 010-0100',
				}),
			)
			await addRow(
				account.id,
				'allergies',
				profile.id,
				s.AllergySchema.parse({ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' }),
			)
			await addRow(
				account.id,
				'medications',
				profile.id,
				s.MedicationSchema.parse({ name: 'Warfarin', dosage: '5 mg', frequency: 'daily' }),
			)
			const code = codes[i]!
			const claim = await claimCode({ userId: account.id, address: null }, code.pin, { profileId: profile.id })
			return { userId: account.id, email: account.email, codeId: code.id, token: claim.token }
		})
	})
}
