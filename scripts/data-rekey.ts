import { scriptDatabase } from './script-database.ts'

// Re-seals medical data under the first key of DATA_ENCRYPTION_KEYS: values and files written before encryption, or
// sealed under an older key. Run it after putting a new key first; remove the old key once it reports nothing left.
const { db, closeDb, prepareDatabase } = await scriptDatabase()
const { recordSealPass, refreshLookupHashes, resealColumns, resealFiles } = await import('../app/domain/housekeeping/reseal.server.ts')
const { sealedData, sealColumns } = await import('../app/utils/sealed-data.server.ts')
sealColumns()
try {
	await prepareDatabase(db, { jobQueues: (await import('../app/jobs/queues.ts')).JOB_QUEUES })
	console.log(`Sealing under key "${sealedData.currentKeyId}".`)
	for (const [table, counts] of Object.entries(await resealColumns()))
		console.log(
			`${table}: ${counts.resealed} rows re-sealed${counts.changedMeanwhile ? `, ${counts.changedMeanwhile} edited meanwhile (sealed already)` : ''}`,
		)
	console.log(`emails: ${(await refreshLookupHashes()).refreshed} recipient lookups refreshed`)
	await recordSealPass('columns')
	const files = await resealFiles()
	await recordSealPass('files')
	console.log(`files: ${files.resealed} re-sealed${files.missing ? `, ${files.missing} named in the database but not stored` : ''}`)
} catch (error) {
	console.error(`Could not re-seal: ${error instanceof Error ? error.message : String(error)}`)
	process.exitCode = 1
} finally {
	await closeDb()
}
