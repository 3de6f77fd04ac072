import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { BackupError, configFromEnv, MANIFEST, restoreBackup } from './backup-kit.ts'

const config = configFromEnv()
const parse = () => parseArgs({ options: { clean: { type: 'boolean', default: false } }, allowPositionals: true })
let args: ReturnType<typeof parse>
try {
	args = parse()
	if (args.positionals.length !== 1) throw new Error('one backup folder')
} catch {
	console.error('Usage: npm run restore -- <backup folder> [--clean]')
	console.error('  --clean  replace the database (and differing DATA_DIR files) already there with the backup')
	const latest = backupsIn(config.backupDir).slice(-3)
	if (latest.length > 0)
		console.error(`Latest backups in ${config.backupDir}:\n${latest.map((name) => `  ${join(config.backupDir, name)}`).join('\n')}`)
	process.exit(2)
}

try {
	await restoreBackup(config, args.positionals[0]!, { clean: args.values.clean })
} catch (error) {
	console.error(error instanceof BackupError ? error.message : error)
	process.exitCode = 1
}

function backupsIn(dir: string) {
	try {
		return readdirSync(dir, { withFileTypes: true })
			.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && readdirSync(join(dir, entry.name)).includes(MANIFEST))
			.map((entry) => entry.name)
			.sort()
	} catch {
		return []
	}
}
