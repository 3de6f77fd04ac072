import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { medicalProfiles } from '#db/schema.ts'
import { savePersonalInfo, updateProfileFields } from '#app/domain/profiles/profiles.server.ts'
import { AllergySchema, PersonalInfoSchema } from '#app/domain/profiles/schemas.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { createUser } from '#tests/factories.ts'

const confirmedAt = async (id: number) =>
	(await db.query.medicalProfiles.findFirst({ columns: { confirmedAt: true }, where: eq(medicalProfiles.id, id) }))!.confirmedAt
const backdate = (id: number) =>
	db
		.update(medicalProfiles)
		.set({ confirmedAt: new Date('2020-01-01') })
		.where(eq(medicalProfiles.id, id))

test('changing what a profile says confirms it; turning scanning off or changing the photo does not', async () => {
	const user = await createUser()
	const { profile } = await savePersonalInfo(user.id, PersonalInfoSchema.parse({ firstName: 'Ada', lastName: 'Lovelace' }))
	expect(await confirmedAt(profile.id)).not.toBeNull()

	await backdate(profile.id)
	await updateProfileFields(user.id, profile.id, { isScannable: false })
	await updateProfileFields(user.id, profile.id, { profilePictureKey: null })
	expect(await confirmedAt(profile.id)).toEqual(new Date('2020-01-01'))

	await updateProfileFields(user.id, profile.id, { additionalNotes: 'Hard of hearing' })
	expect((await confirmedAt(profile.id))!.getTime()).toBeGreaterThan(Date.now() - 60_000)

	await backdate(profile.id)
	await addRow(user.id, 'allergies', profile.id, AllergySchema.parse({ allergen: 'Penicillin', severity: 'Severe' }))
	expect((await confirmedAt(profile.id))!.getTime()).toBeGreaterThan(Date.now() - 60_000)
})
