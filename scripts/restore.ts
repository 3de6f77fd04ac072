import { parseArgs } from 'node:util'
import { listBackups, placeLocation } from '../app/adapters/backup-place.server.ts'
import { BackupError, configFromEnv, findBackup, restoreBackup } from './backup-kit.ts'

const parse = () => parseArgs({ options: { clean: { type: 'boolean', default: false } }, allowPositionals: true })
let args: ReturnType<typeof parse>
try {
	args = parse()
	if (args.positionals.length > 1) throw new Error('at most one backup')
} catch {
	console.error('Usage: npm run restore -- [<backup folder> | <backup name>] [--clean]')
	console.error('  without a backup, the newest in BACKUP_S3_BUCKET (when set) or BACKUP_DIR')
	console.error('  --clean  replace the database (and differing DATA_DIR files) already there with the backup')
	try {
		const config = configFromEnv()
		const latest = (await listBackups(config.place)).slice(-3)
		if (latest.length > 0)
			console.error(`Latest backups in ${placeLocation(config.place)}:\n${latest.map((b) => `  ${b.name}`).join('\n')}`)
	} catch {
		// The usage is what matters here; the settings are checked again by a run with arguments.
	}
	process.exit(2)
}

try {
	const config = configFromEnv()
	const which = args.positionals[0]
	const found = await findBackup(config, which)
	try {
		console.error(`Restoring ${found.location}${found.at ? ` (made ${found.at.toISOString()})` : ''} …`)
		await restoreBackup(config, found.folder, { clean: args.values.clean, shownAs: which ?? found.location })
	} finally {
		await found.done()
	}
} catch (error) {
	console.error(error instanceof BackupError ? error.message : error)
	process.exitCode = 1
}
