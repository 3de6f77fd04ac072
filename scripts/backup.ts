import { parseArgs } from 'node:util'
import { BackupError, configFromEnv, createBackup } from './backup-kit.ts'

// Prints where the new backup is (its folder, or its s3:// address) on standard output and nothing else; progress and
// warnings go to standard error.
try {
	parseArgs({ options: {}, allowPositionals: false })
} catch {
	console.error(
		'Usage: npm run backup   (settings from the environment: DATABASE_URL, DATA_DIR, S3_BUCKET, BACKUP_DIR, BACKUP_S3_BUCKET, BACKUP_S3_PREFIX, BACKUP_KEEP)',
	)
	process.exit(2)
}

try {
	const { folder } = await createBackup(configFromEnv())
	process.stdout.write(`${folder}\n`)
} catch (error) {
	console.error(error instanceof BackupError ? error.message : error)
	console.error('No backup was made.')
	process.exitCode = 1
}
