import { randomBytes } from 'node:crypto'
import { storage } from '#app/adapters/storage.server.ts'
import { createAccount } from '#app/domain/accounts/accounts.server.ts'
import { addDocument, uploadPicture } from '#app/domain/profiles/files.server.ts'
import { getProfileDetail, savePersonalInfo } from '#app/domain/profiles/profiles.server.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { sealColumns } from '#app/utils/sealed-data.server.ts'
import { closeDb } from '#db/client.ts'

/*
 * The app's side of backup-restore.test.ts, run in a process of its own so that the app's modules are bound to the
 * DATABASE_URL and DATA_DIR it is given, as the server's would be:
 *   seed                    makes an account with a filled medical profile and two stored files
 *   read <user> <profile>   reads the profile back
 * Both print the profile as the app reads it, with the bytes of its files, as JSON.
 */

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

async function seed() {
	const tag = randomBytes(4).toString('hex')
	const account = await createAccount({ username: `backup_${tag}`, email: `backup-${tag}@example.com`, password: 'Correct-horse-9!' })
	if (account.outcome !== 'created') throw new Error(`account not created: ${JSON.stringify(account.errors)}`)
	const userId = account.user.id
	const { profile } = await savePersonalInfo(userId, {
		firstName: 'Rosa',
		lastName: 'Backup',
		dateOfBirth: '1961-04-02',
		bloodType: 'O-',
		phoneNumber: '+1 555 0100',
		height: '165 cm',
		distinguishingMarks: 'Scar on the left wrist',
	})
	await addRow(userId, 'allergies', profile.id, { allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' })
	await addRow(userId, 'allergies', profile.id, { allergen: 'Latex', severity: 'Mild', reaction: 'Rash' })
	await addRow(userId, 'medications', profile.id, { name: 'Warfarin', dosage: '5 mg', frequency: 'Daily', startDate: '2020-01-15' })
	await addRow(userId, 'conditions', profile.id, { condition: 'Atrial fibrillation', status: 'Chronic' })
	await addRow(userId, 'contacts', profile.id, { name: 'Ana Backup', relationship: 'Daughter', phoneNumber: '+1 555 0101' })
	await uploadPicture(userId, profile.id, new File([PNG], 'me.png', { type: 'image/png' }))
	// Bytes of its own in every run, so a file restored from elsewhere could not pass for it.
	const pdf = new TextEncoder().encode(`%PDF-1.4\n% ${tag}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`)
	await addDocument(userId, profile.id, new File([pdf], 'directive.pdf', { type: 'application/pdf' }), { description: 'Advance directive' })
	return read(userId, profile.id)
}

async function read(userId: string, profileId: number) {
	const detail = await getProfileDetail(userId, profileId)
	if (!detail) throw new Error(`profile ${profileId} of ${userId} not found`)
	const keys = [detail.profilePictureKey, ...detail.medicalDocuments.map((d) => d.storageKey)].filter((k): k is string => Boolean(k))
	const files: Record<string, { contentType: string; base64: string } | null> = {}
	for (const key of keys) {
		const file = await storage.get(key)
		files[key] = file && { contentType: file.contentType, base64: Buffer.from(file.body).toString('base64') }
	}
	return { userId, profileId, detail, files }
}

sealColumns()
const [command, userId, profileId] = process.argv.slice(2)
try {
	const result = command === 'seed' ? await seed() : command === 'read' ? await read(userId!, Number(profileId)) : null
	if (!result) throw new Error('usage: backup-restore-app.ts seed | read <userId> <profileId>')
	process.stdout.write(JSON.stringify(result))
} finally {
	await closeDb()
}
