// The owner's security checklist (spec 002 §2 Security tab, §4). Client-safe: the tab renders these, the server
// decides which are complete (security-checklist.server.ts).

export type SecurityItemId = 'two-factor' | 'https' | 'session-secret' | 'backups' | 'outgoing-mail' | 'file-storage' | 'admin-token'

export type SecurityItemDefinition = {
	id: SecurityItemId
	title: string
	/** One sentence: what to do. */
	description: string
	/**
	 * Whether the server checks the item itself. A manual item is ticked by hand; 'admin-token' is manual unless the
	 * server can see it is weak (see security-checklist.server.ts).
	 */
	manual: boolean
}

export const SECURITY_ITEMS: readonly SecurityItemDefinition[] = [
	{
		id: 'two-factor',
		title: 'Admin two-factor login',
		description: 'Turn on time-based codes with backup codes for the owner account at /owner-panel/two-factor.',
		manual: false,
	},
	{
		id: 'https',
		title: 'HTTPS everywhere',
		description: 'Set PUBLIC_URL to the https:// address the site is served from, behind a certificate.',
		manual: false,
	},
	{
		id: 'session-secret',
		title: 'Strong session secret',
		description: 'Set SESSION_SECRET to a random value of at least 32 characters (for example `openssl rand -base64 32`).',
		manual: false,
	},
	{
		id: 'backups',
		title: 'Database backups configured',
		description: 'Run npm run backup every night into a bucket off the server (BACKUP_S3_BUCKET), and test a restore now and then.',
		manual: false,
	},
	{
		id: 'outgoing-mail',
		title: 'Outgoing e-mail delivered',
		description: 'Set SMTP_URL so receipts and notices are delivered instead of waiting in the outbox.',
		manual: false,
	},
	{
		id: 'file-storage',
		title: 'Uploaded files in durable storage',
		description: 'Set S3_BUCKET (and its credentials) so uploaded documents live in durable, backed-up storage.',
		manual: false,
	},
	{
		id: 'admin-token',
		title: 'Admin token kept secret',
		description: 'Use an ADMIN_TOKEN of at least 24 random characters, or none at all, and share it with no one.',
		manual: true,
	},
]

export const SECURITY_ITEM_IDS = SECURITY_ITEMS.map((item) => item.id)

/** An ADMIN_TOKEN shorter than this is flagged by the server. */
export const MIN_ADMIN_TOKEN_LENGTH = 24
/** Each SESSION_SECRET (all of them verify cookies) must be at least this long. */
export const MIN_SESSION_SECRET_LENGTH = 32

/** Shown when every item is complete (spec 002 §4: at 100% a completion message shows). */
export const SECURITY_COMPLETE_MESSAGE = 'All security measures are in place.'

export const UNKNOWN_SECURITY_ITEM = 'Unknown checklist item.'
export const AUTOMATIC_SECURITY_ITEM = 'This item is checked by the server and cannot be ticked by hand.'

export function isSecurityItemId(value: unknown): value is SecurityItemId {
	return typeof value === 'string' && (SECURITY_ITEM_IDS as readonly string[]).includes(value)
}
