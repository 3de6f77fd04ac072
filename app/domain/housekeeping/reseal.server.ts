import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { mailAddressHash } from '#app/adapters/mail.server.ts'
import { sealedStorage } from '#app/adapters/storage.server.ts'
import { smallPictureKeys } from '#app/domain/uploads/small-pictures.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'
import { db, rowsOf } from '#db/client.ts'
import { sealPasses } from '#db/schema.ts'
import { SEALED_COLUMNS } from '#db/schema/columns.ts'

const BATCH = 500

/** The sealed columns by table, in SQL names. */
export function sealedTables() {
	const tables = new Map<string, string[]>()
	for (const place of SEALED_COLUMNS) {
		const [table, column] = place.split('.') as [string, string]
		tables.set(table, [...(tables.get(table) ?? []), column])
	}
	return tables
}

/**
 * Seals, under the first key, every value that is plain text (written before encryption) or sealed under another key.
 * Each row is written only if it is unchanged since it was read: an edit made meanwhile is sealed already, and stays.
 * Safe to run while the app serves, and on several instances at once.
 */
export async function resealColumns() {
	const prefix = `$hmh1$${sealedData.currentKeyId}$`
	const result: Record<string, { resealed: number; changedMeanwhile: number }> = {}
	for (const [table, columns] of sealedTables()) {
		const stale = sql.join(
			columns.map((c) => sql`(${sql.identifier(c)} is not null and left(${sql.identifier(c)}, ${prefix.length}) <> ${prefix})`),
			sql` or `,
		)
		const counts = (result[table] = { resealed: 0, changedMeanwhile: 0 })
		let after = 0
		for (;;) {
			const rows = rowsOf<Record<string, string | number | null>>(
				await db.execute(sql`
					select id, ${sql.join(
						columns.map((c) => sql.identifier(c)),
						sql`, `,
					)}
					from ${sql.identifier(table)} where id > ${after} and (${stale}) order by id limit ${BATCH}`),
			)
			for (const row of rows) {
				const sets = columns.map((c) => {
					const stored = row[c] as string | null
					const fresh = stored == null ? null : sealedData.sealText(sealedData.openText(stored, `${table}.${c}`), `${table}.${c}`)
					return sql`${sql.identifier(c)} = ${fresh}`
				})
				const unchanged = columns.map((c) => sql`${sql.identifier(c)} is not distinct from ${row[c] ?? null}`)
				const updated = rowsOf(
					await db.execute(
						sql`update ${sql.identifier(table)} set ${sql.join(sets, sql`, `)} where id = ${row.id} and ${sql.join(unchanged, sql` and `)} returning id`,
					),
				)
				if (updated.length) counts.resealed++
				else counts.changedMeanwhile++
			}
			if (rows.length < BATCH) break
			after = Number(rows.at(-1)!.id)
		}
	}
	return result
}

/**
 * Fills in the recipient's lookup hash of messages that have none (written before there was one) or one made under
 * another key, so account deletion finds them after the older key is removed. Safe to run beside the app.
 */
export async function refreshLookupHashes() {
	const current = `${sealedData.currentKeyId}:`
	let refreshed = 0
	for (;;) {
		const rows = rowsOf<{ id: number; to_address: string }>(
			await db.execute(sql`
				select id, to_address from emails
				where to_address_hash is null or left(to_address_hash, ${current.length}) <> ${current}
				order by id limit ${BATCH}`),
		)
		for (const row of rows) {
			const hash = mailAddressHash(sealedData.openText(row.to_address, 'emails.to_address'))
			await db.execute(sql`update emails set to_address_hash = ${hash} where id = ${row.id}`)
			refreshed++
		}
		if (rows.length < BATCH) return { refreshed }
	}
}

/** Every stored file the database points at. */
async function storedFileKeys() {
	const rows = rowsOf<{ key: string }>(
		await db.execute(sql`
			select profile_picture_key as key from medical_profiles where profile_picture_key is not null
			union select dnr_document_key from medical_profiles where dnr_document_key is not null
			union select card_front_photo_key from insurance_policies where card_front_photo_key is not null
			union select storage_key from medical_documents
			union select storage_key from pending_uploads`),
	)
	return rows.map((r) => r.key)
}

/** Seals under the first key every stored file that is plain (stored before encryption) or sealed under another key. */
export async function resealFiles() {
	let resealed = 0
	let missing = 0
	const reseal = async (key: string) => {
		const file = await sealedStorage.get(key)
		if (!file) return 'missing'
		if (sealedData.bytesKeyId(file.body) === sealedData.currentKeyId) return 'current'
		const plain = sealedData.openBytes(file.body, key)
		await sealedStorage.put(key, sealedData.sealBytes(plain, key), file.contentType)
		resealed++
		return 'resealed'
	}
	for (const key of await storedFileKeys()) {
		if ((await reseal(key)) === 'missing') missing++
		// A picture's small copies are remade from it when absent, so one not there is not missing.
		for (const copy of smallPictureKeys(key)) await reseal(copy)
	}
	return { resealed, missing }
}

const columnsFingerprint = () =>
	createHash('sha256')
		.update([...SEALED_COLUMNS].sort().join(','))
		.digest('base64url')

/** Records a complete pass, so the next start knows it was done. */
export async function recordSealPass(part: 'columns' | 'files') {
	const pass = {
		part,
		keyId: sealedData.currentKeyId,
		fingerprint: part === 'columns' ? columnsFingerprint() : '',
		completedAt: new Date(),
	}
	await db.insert(sealPasses).values(pass).onConflictDoUpdate({ target: sealPasses.part, set: pass })
}

/**
 * The 'seal-data' job, at every start and daily: seals what is not sealed under the current key, but only when that
 * can be the case, that is, when the key, or for values the list of sealed columns, changed since the last complete pass
 * (a release that seals another column, a new key put first, data from before encryption). Then data:rekey by hand is
 * needed only to see the counts.
 */
export async function sealOutstanding() {
	const done = new Map((await db.select().from(sealPasses)).map((pass) => [pass.part, pass]))
	const columns = done.get('columns')
	const files = done.get('files')
	const result: { columns: Awaited<ReturnType<typeof resealColumns>> | null; files: Awaited<ReturnType<typeof resealFiles>> | null } = {
		columns: null,
		files: null,
	}
	if (columns?.keyId !== sealedData.currentKeyId || columns.fingerprint !== columnsFingerprint()) {
		result.columns = await resealColumns()
		await refreshLookupHashes()
		await recordSealPass('columns')
	}
	if (files?.keyId !== sealedData.currentKeyId) {
		result.files = await resealFiles()
		await recordSealPass('files')
	}
	return result
}
