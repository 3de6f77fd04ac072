import { eq, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { ownerSettings, users } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { BACKUP_MAX_AGE_MS, backupPlaceLocation, newestBackup, type NewestBackup } from '#app/domain/housekeeping/backups.server.ts'
import { env } from '#app/utils/env.server.ts'
import {
	AUTOMATIC_SECURITY_ITEM,
	isSecurityItemId,
	MIN_ADMIN_TOKEN_LENGTH,
	MIN_SESSION_SECRET_LENGTH,
	SECURITY_ITEMS,
	UNKNOWN_SECURITY_ITEM,
	type SecurityItemId,
} from './security-items.ts'

export const OWNER_NOT_FOUND = 'Account not found'

export type SecurityItem = {
	id: SecurityItemId
	title: string
	description: string
	complete: boolean
	automatic: boolean
	/** What the server found, where it says more than complete or not (the newest backup's age). */
	finding?: string
}
export type SecurityChecklist = { items: SecurityItem[]; completed: number; total: number; percent: number }

/** What the server can see of its own set-up: the parts of `env` the checklist reads. */
export type SecurityConfig = {
	PUBLIC_URL: string
	/** As configured: unset means a secret generated on this machine (not shared by a second instance, lost with it). */
	SESSION_SECRET?: string
	SMTP_URL?: string
	S3_BUCKET?: string
	ADMIN_TOKEN?: string
}

/** Secrets that appear in this repository (tests, end-to-end runs, benchmarks) or in every tutorial. */
const KNOWN_SECRETS = new Set([
	'test-session-secret',
	'e2e-session-secret',
	'bench',
	'bench-lighthouse',
	'secret',
	'session-secret',
	'changeme',
	'change-me',
	'keyboard cat',
	'supersecret',
	'super-secret',
	'development',
	'dev',
])
const PLACEHOLDER = /change.?me|change.?this|example|placeholder|your.?secret|replace.?me|not.?secret/i

/** Every comma-separated secret verifies cookies, so every one must be strong: long, not a known value, not one letter repeated. */
export function isStrongSessionSecret(configured: string | undefined) {
	if (!configured) return false
	const secrets = configured
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean)
	return (
		secrets.length > 0 &&
		secrets.every(
			(s) => s.length >= MIN_SESSION_SECRET_LENGTH && !KNOWN_SECRETS.has(s.toLowerCase()) && !PLACEHOLDER.test(s) && new Set(s).size >= 10,
		)
	)
}

/** `3 hours ago`: how long ago, in the largest whole unit. */
export function timeAgo(ms: number) {
	const minutes = Math.floor(Math.max(0, ms) / 60_000)
	const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`
	if (minutes < 1) return 'just now'
	if (minutes < 60) return count(minutes, 'minute')
	if (minutes < 48 * 60) return count(Math.floor(minutes / 60), 'hour')
	return count(Math.floor(minutes / (24 * 60)), 'day')
}

/** The newest backup, as the checklist says it: recent enough or not, and when. */
export function backupFinding(backup: NewestBackup | null, now: Date, location: string) {
	if (!backup) return { recent: false, finding: `No backup found in ${location}.` }
	const age = now.getTime() - backup.at.getTime()
	const recent = age <= BACKUP_MAX_AGE_MS
	const when = `Newest backup: ${timeAgo(age)}`
	return { recent, finding: recent ? `${when}.` : `${when}, none in the last 26 hours.` }
}

/** A weak ADMIN_TOKEN the server can see; otherwise the item is the owner's to tick. */
const weakAdminToken = (config: SecurityConfig) => Boolean(config.ADMIN_TOKEN) && config.ADMIN_TOKEN!.length < MIN_ADMIN_TOKEN_LENGTH

/** Whether the item is decided by the server for this configuration. */
export function isAutomatic(id: SecurityItemId, config: SecurityConfig = env) {
	if (id === 'admin-token') return weakAdminToken(config)
	return !SECURITY_ITEMS.find((item) => item.id === id)!.manual
}

/**
 * The checklist from what is known: the owner's two-factor state and hand ticks, and the configuration. Pure, so
 * every configuration can be tested.
 */
export function buildChecklist(
	state: {
		twoFactorEnabled: boolean
		ticked: Record<string, boolean>
		/** The newest backup (newestBackup()), the time to measure its age from, and the place it was looked for. */
		backups?: { newest: NewestBackup | null; now: Date; location: string }
	},
	config: SecurityConfig = env,
): SecurityChecklist {
	const backups = state.backups && backupFinding(state.backups.newest, state.backups.now, state.backups.location)
	const seen: Partial<Record<SecurityItemId, boolean>> = {
		backups: Boolean(backups?.recent),
		'two-factor': state.twoFactorEnabled,
		https: config.PUBLIC_URL.toLowerCase().startsWith('https:'),
		'session-secret': isStrongSessionSecret(config.SESSION_SECRET),
		'outgoing-mail': Boolean(config.SMTP_URL),
		'file-storage': Boolean(config.S3_BUCKET),
		...(weakAdminToken(config) && { 'admin-token': false }),
	}
	const items = SECURITY_ITEMS.map(({ id, title, description }) => {
		const automatic = isAutomatic(id, config)
		const complete = automatic ? Boolean(seen[id]) : state.ticked[id] === true
		return { id, title, description, automatic, complete, ...(id === 'backups' && backups && { finding: backups.finding }) }
	})
	const completed = items.filter((item) => item.complete).length
	return { items, completed, total: items.length, percent: Math.round((completed / items.length) * 100) }
}

/** The Security tab (spec 002 §2, §4): seven items, each the real state where the server can see it (the backups' age too). */
export async function securityChecklist(ownerUserId: string): Promise<SecurityChecklist> {
	const settings = await db.query.ownerSettings.findFirst({
		columns: { totpEnabledAt: true, checklist: true },
		where: eq(ownerSettings.userId, ownerUserId),
	})
	const backups = { newest: await newestBackup(), now: new Date(), location: backupPlaceLocation() }
	return buildChecklist({ twoFactorEnabled: Boolean(settings?.totpEnabledAt), ticked: settings?.checklist ?? {}, backups })
}

/** Ticks or unticks an item the server cannot see for itself (400 for any other); returns the checklist as it now is. */
export async function setChecklistItem(ownerUserId: string, id: string, done: boolean): Promise<SecurityChecklist> {
	if (!isSecurityItemId(id)) throw new DomainError(400, UNKNOWN_SECURITY_ITEM, 'id')
	if (isAutomatic(id)) throw new DomainError(400, AUTOMATIC_SECURITY_ITEM, 'id')
	const owner = await db.query.users.findFirst({ columns: { id: true }, where: eq(users.id, ownerUserId) })
	if (!owner) throw new DomainError(404, OWNER_NOT_FOUND)
	const tick = { [id]: done === true }
	await db
		.insert(ownerSettings)
		.values({ userId: ownerUserId, checklist: tick })
		.onConflictDoUpdate({
			target: ownerSettings.userId,
			// Merged in the database: ticking two items at once from two tabs keeps both.
			set: { checklist: sql`${ownerSettings.checklist} || ${JSON.stringify(tick)}::jsonb` },
		})
	return securityChecklist(ownerUserId)
}
