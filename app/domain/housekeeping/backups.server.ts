import { join } from 'node:path'
import { type BackupPlace, listBackups, normalPrefix, placeLocation } from '#app/adapters/backup-place.server.ts'
import { env } from '#app/utils/env.server.ts'
import { log } from '#app/utils/log.server.ts'

/** How long an answer of newestBackup() is reused: a metrics scrape every few seconds lists the place only this often. */
export const NEWEST_BACKUP_CACHE_MS = 5 * 60_000
/** A failed listing is tried again sooner. */
const FAILED_LISTING_CACHE_MS = 60_000
/** Older than this, the newest backup is not last night's: the security checklist warns. */
export const BACKUP_MAX_AGE_MS = 26 * 60 * 60_000

export type NewestBackup = { at: Date; location: string }

/** Where `npm run backup` keeps its backups with these settings (as scripts/backup-kit.ts reads them). */
export function backupPlace(config: typeof env = env): BackupPlace {
	if (config.BACKUP_S3_BUCKET)
		return {
			kind: 's3',
			prefix: normalPrefix(config.BACKUP_S3_PREFIX),
			s3: {
				bucket: config.BACKUP_S3_BUCKET,
				region: config.S3_REGION,
				endpoint: config.S3_ENDPOINT,
				accessKeyId: config.S3_ACCESS_KEY_ID,
				secretAccessKey: config.S3_SECRET_ACCESS_KEY,
				forcePathStyle: config.S3_FORCE_PATH_STYLE,
			},
		}
	return { kind: 'local', dir: config.BACKUP_DIR ?? join(config.DATA_DIR, 'backups') }
}

/** Where backups are looked for: `s3://bucket/prefix/` or the folder's path. */
export const backupPlaceLocation = () => placeLocation(backupPlace())

const placeKey = (place: BackupPlace) =>
	place.kind === 's3' ? `s3 ${place.s3.endpoint ?? ''} ${place.s3.bucket} ${place.prefix}` : `local ${place.dir}`

let cached: { key: string; until: number; answer: Promise<NewestBackup | null> } | undefined

/**
 * The newest whole backup in the configured place (BACKUP_S3_BUCKET, else BACKUP_DIR), or null when there is none or
 * the place cannot be listed (logged). Cached for a few minutes, so calling it on every metrics scrape or page view is cheap.
 */
export function newestBackup({ now = Date.now() }: { now?: number } = {}): Promise<NewestBackup | null> {
	const place = backupPlace()
	const key = placeKey(place)
	if (cached && cached.key === key && now < cached.until) return cached.answer
	const entry = { key, until: now + NEWEST_BACKUP_CACHE_MS, answer: Promise.resolve<NewestBackup | null>(null) }
	entry.answer = listBackups(place).then(
		(backups) => {
			const newest = backups.reduce<(typeof backups)[number] | undefined>((a, b) => (a && a.at >= b.at ? a : b), undefined)
			return newest ? { at: newest.at, location: newest.location } : null
		},
		(error: unknown) => {
			entry.until = Math.min(entry.until, now + FAILED_LISTING_CACHE_MS)
			log.warn({ kind: place.kind, err: error }, 'backups could not be listed')
			return null
		},
	)
	cached = entry
	return entry.answer
}
