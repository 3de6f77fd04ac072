import { randomBytes } from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import { createContext, createSessionStorage, type Session } from 'react-router'
import { db } from '#db/client.ts'
import { sessions } from '#db/schema.ts'
import { env, isProduction } from './env.server.ts'
import type { RequestArgs } from './request.server.ts'

export const SESSION_DAYS = 30

/** Who an identity provider says the person is. */
export type ProviderIdentity = {
	provider: string
	subject: string
	email: string
	emailVerified: boolean
	firstName?: string
	lastName?: string
}

/** Who the identity provider said the person is, kept server-side while they confirm the link with a password. */
export type PendingLink = ProviderIdentity & {
	providerVerified: boolean
	accountVerified: boolean
	hasPassword: boolean
	at: number
}

/** What a browser session may hold. The user id is mirrored into its own column for lookups and cascades. */
export type SessionData = {
	userId?: string
	pendingPin?: string
	/** The session presented ADMIN_TOKEN at /owner-panel, while signed in as adminTokenUserId. */
	adminTokenValid?: boolean
	adminTokenUserId?: string
	/** The owner passed the second factor in this session (user id and when). */
	ownerVerified?: { userId: string; at: number }
	/** A guest's cart (a signed-in person's is in the carts table). */
	cart?: unknown
	/** The checkout form as last submitted, so a no-JavaScript round trip keeps what was typed. */
	checkout?: Record<string, string>
	/** The sign-in that started this session (sign_ins.id), so the Profile page can name the one before it. */
	signInId?: number
	/** A provider's sign-in waiting for the password of the existing account it would be linked to (and since when). */
	pendingLink?: PendingLink
	[key: string]: unknown
}

function expiry(expires?: Date) {
	return expires ?? new Date(Date.now() + SESSION_DAYS * 24 * 60 * 60 * 1000)
}

export const SESSION_COOKIE = 'hmh_session'

/** Whether the request carries a session cookie at all: without one, no session needs reading. */
export const hasSessionCookie = (request: Request) => (request.headers.get('cookie') ?? '').includes(`${SESSION_COOKIE}=`)

export const sessionStorage = createSessionStorage<SessionData>({
	cookie: {
		name: SESSION_COOKIE,
		httpOnly: true,
		sameSite: 'lax',
		secure: isProduction && env.PUBLIC_URL.startsWith('https:'),
		path: '/',
		secrets: env.sessionSecrets,
		maxAge: SESSION_DAYS * 24 * 60 * 60,
	},
	async createData(data, expires) {
		const id = randomBytes(32).toString('base64url')
		await db.insert(sessions).values({ id, userId: data.userId ?? null, data, expiresAt: expiry(expires) })
		return id
	},
	async readData(id) {
		const row = await db.query.sessions.findFirst({
			columns: { data: true, userId: true },
			where: and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())),
		})
		if (!row) return null
		// A row whose user was signed out elsewhere keeps no user id.
		return { ...row.data, userId: row.userId ?? undefined }
	},
	async updateData(id, data, expires) {
		// Never re-inserts: a session ended elsewhere (logout, account deletion) stays ended.
		await db
			.update(sessions)
			.set({ userId: data.userId ?? null, data, expiresAt: expiry(expires) })
			.where(eq(sessions.id, id))
	},
	async deleteData(id) {
		await db.delete(sessions).where(eq(sessions.id, id))
	},
})

export type AppSession = Session<SessionData>

const sessionRead = createContext<Promise<AppSession> | null>(null)

/** Read once per request: its middleware, loaders and actions share one session object, and one database read. */
export function getSession({ request, context }: RequestArgs) {
	let session = context.get(sessionRead)
	if (!session) context.set(sessionRead, (session = sessionStorage.getSession(request.headers.get('cookie'))))
	return session
}
