import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { and, count, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import { CompactEncrypt } from 'jose'
import { db } from '#db/client.ts'
import { columnsOf } from '#db/queries.ts'
import { medicalProfiles, smartHealthLinks as links } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { auditChange, auditRead } from '#app/domain/profiles/audit.server.ts'
import { getProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import { ownedProfile } from '#app/domain/profiles/access.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import { buildIps } from './ips.ts'
import { EXPIRY_OPTIONS, HEALTH_LINK_MESSAGES, MAX_ACTIVE_LINKS, PASSCODE_ATTEMPTS } from './options.ts'
import { shlinkQrSvg } from './qr.server.ts'
import type { HealthLinkInput, ManifestRequest } from './schemas.ts'
import { encodeShlink } from './shlink.ts'

export const FHIR_JSON = 'application/fhir+json'

/** The profile's summary as it is now, for its own account only (another person's id reads as unknown). */
export async function profileIps(userId: string, profileId: number, now = new Date()) {
	const profile = await getProfileDetail(userId, profileId)
	if (!profile) throw new DomainError(404, 'Profile not found')
	return buildIps(profile, { now, author: env.FOUNDATION_LEGAL_NAME })
}

/** Neither revoked, nor past its expiry, nor locked by wrong passcodes. */
const isActive = () =>
	and(
		isNull(links.revokedAt),
		or(isNull(links.expiresAt), gt(links.expiresAt, sql`now()`)),
		or(isNull(links.attemptsLeft), gt(links.attemptsLeft, 0)),
	)

const randomKey = () => randomBytes(32).toString('base64url')
const MANIFEST_ID = /^[A-Za-z0-9_-]{43}$/

export function manifestUrl(manifestId: string) {
	return new URL(`/shl/${manifestId}`, env.PUBLIC_URL).href
}

/** A new link for one of the person's profiles; at most MAX_ACTIVE_LINKS active at once. */
export async function createHealthLink(userId: string, profileId: number, input: HealthLinkInput, now = new Date()) {
	const seconds = EXPIRY_OPTIONS.find((o) => o.value === input.expires)?.seconds ?? null
	// Hashed before the transaction: scrypt takes a while, and the profile's row is locked inside it.
	const passcodeHash = input.passcode ? await hashPassword(input.passcode) : null
	return db.transaction(async (tx) => {
		// Locks the profile: two links made at once are counted one after the other.
		await ownedProfile(userId, profileId, tx)
		const [active] = await tx
			.select({ n: count() })
			.from(links)
			.where(and(eq(links.medicalProfileId, profileId), isActive()))
		if ((active?.n ?? 0) >= MAX_ACTIVE_LINKS) throw new DomainError(409, HEALTH_LINK_MESSAGES.tooMany)
		const [link] = await tx
			.insert(links)
			.values({
				medicalProfileId: profileId,
				manifestId: randomKey(),
				key: randomKey(),
				label: input.label ?? null,
				passcodeHash,
				attemptsLeft: passcodeHash ? PASSCODE_ATTEMPTS : null,
				expiresAt: seconds === null ? null : new Date(now.getTime() + seconds * 1000),
			})
			.returning({ id: links.id, manifestId: links.manifestId })
		await auditChange(tx, {
			profileId,
			ownerUserId: userId,
			action: 'shl-created',
			fields: [],
			detail: `SMART Health Link #${link!.id}`,
		})
		return link!
	})
}

/** Ends a link at once; revoking it again changes nothing. */
export async function revokeHealthLink(userId: string, linkId: number) {
	return db.transaction(async (tx) => {
		const own = tx.select({ id: medicalProfiles.id }).from(medicalProfiles).where(eq(medicalProfiles.userId, userId))
		const [link] = await tx
			.update(links)
			.set({ revokedAt: sql`coalesce(${links.revokedAt}, now())` })
			.where(and(eq(links.id, linkId), inArray(links.medicalProfileId, own)))
			.returning({ id: links.id, profileId: links.medicalProfileId })
		if (!link) throw new DomainError(404, HEALTH_LINK_MESSAGES.notFound)
		await auditChange(tx, {
			profileId: link.profileId,
			ownerUserId: userId,
			action: 'shl-revoked',
			fields: [],
			detail: `SMART Health Link #${link.id}`,
		})
		return link
	})
}

export type HealthLinkState = 'active' | 'revoked' | 'expired' | 'locked'

/** Ended links kept in view per profile, newest first, beside every active one. */
const ENDED_SHOWN = 5

/**
 * The person's links, newest first, with each active one's `shlink:/…` text and its QR code; ended ones say why they
 * ended (revoked, expired, or locked by wrong passcodes).
 */
export async function listHealthLinks(userId: string, now = new Date()) {
	const rows = await db
		.select({
			id: links.id,
			profileId: links.medicalProfileId,
			manifestId: links.manifestId,
			key: links.key,
			label: links.label,
			hasPasscode: sql<boolean>`${links.passcodeHash} is not null`,
			attemptsLeft: links.attemptsLeft,
			expiresAt: links.expiresAt,
			revokedAt: links.revokedAt,
			accessCount: links.accessCount,
			lastAccessedAt: links.lastAccessedAt,
			createdAt: links.createdAt,
		})
		.from(links)
		.innerJoin(medicalProfiles, and(eq(medicalProfiles.id, links.medicalProfileId), eq(medicalProfiles.userId, userId)))
		.orderBy(desc(links.id))
	const ended = new Map<number, number>()
	return rows.flatMap(({ manifestId, key, ...row }) => {
		const state = stateOf(row, now)
		if (state !== 'active') {
			const shown = ended.get(row.profileId) ?? 0
			if (shown >= ENDED_SHOWN) return []
			ended.set(row.profileId, shown + 1)
		}
		const shlink =
			state === 'active' ? shlinkOf({ manifestId, key, label: row.label, expiresAt: row.expiresAt, hasPasscode: row.hasPasscode }) : null
		return [{ ...row, state, shlink, qrSvg: shlink ? shlinkQrSvg(shlink) : null }]
	})
}
export type HealthLinkView = Awaited<ReturnType<typeof listHealthLinks>>[number]

function stateOf(link: { revokedAt: Date | null; expiresAt: Date | null; attemptsLeft: number | null }, now: Date): HealthLinkState {
	if (link.revokedAt) return 'revoked'
	if (link.expiresAt && link.expiresAt <= now) return 'expired'
	if (link.attemptsLeft === 0) return 'locked'
	return 'active'
}

function shlinkOf(link: { manifestId: string; key: string; label: string | null; expiresAt: Date | null; hasPasscode: boolean }) {
	return encodeShlink({
		url: manifestUrl(link.manifestId),
		key: link.key,
		...(link.expiresAt && { exp: Math.floor(link.expiresAt.getTime() / 1000) }),
		...(link.hasPasscode && { flag: 'P' }),
		...(link.label && { label: link.label }),
		v: 1,
	})
}

/** Who opened a link, as far as the access record keeps it: their address and a coarse place. */
export type LinkReader = { ipAddress: string; place: string | null }

export type ManifestAnswer =
	| { status: 'not-found' }
	| { status: 'passcode'; remainingAttempts: number }
	| { status: 'ok'; manifest: { status: 'can-change'; files: ManifestFile[] } }
type ManifestFile = { contentType: typeof FHIR_JSON; embedded: string } | { contentType: typeof FHIR_JSON; location: string }

/**
 * A viewer asks for a link's manifest (HL7 SMART Health Links): an unknown, revoked, expired or locked link is not found;
 * a passcode missing or wrong is refused (a wrong one spends one of the link's attempts, atomically); otherwise the
 * access is counted and the manifest names one file, the profile's summary as it is now, encrypted with the link's key,
 * embedded unless the viewer allows less than its length (then a short-lived address to fetch it from). Every answer
 * but "not found" goes on the profile's access record.
 */
export async function openManifest(manifestId: string, request: ManifestRequest, reader: LinkReader): Promise<ManifestAnswer> {
	const link = await findLink(manifestId)
	if (!link || stateOf(link, new Date()) !== 'active') return { status: 'not-found' }
	const recorded = (action: 'shl-manifest' | 'shl-refused') =>
		auditRead({
			action,
			profileId: link.profileId,
			ownerUserId: link.ownerId,
			actorUserId: null,
			role: 'link_recipient',
			ipAddress: reader.ipAddress,
			place: reader.place,
			detail: request.recipient.slice(0, 200),
		})
	if (link.passcodeHash) {
		if (request.passcode === undefined) {
			await recorded('shl-refused')
			return { status: 'passcode', remainingAttempts: link.attemptsLeft ?? 0 }
		}
		if (!(await verifyPassword(request.passcode, link.passcodeHash))) {
			const [spent] = await db
				.update(links)
				.set({ attemptsLeft: sql`${links.attemptsLeft} - 1` })
				.where(and(eq(links.id, link.id), gt(links.attemptsLeft, 0)))
				.returning({ attemptsLeft: links.attemptsLeft })
			await recorded('shl-refused')
			return { status: 'passcode', remainingAttempts: spent?.attemptsLeft ?? 0 }
		}
	}
	// Counted only while still active: a revocation or the last wrong passcode that landed meanwhile wins.
	const [counted] = await db
		.update(links)
		.set({ accessCount: sql`${links.accessCount} + 1`, lastAccessedAt: sql`now()` })
		.where(and(eq(links.id, link.id), isActive()))
		.returning({ id: links.id })
	if (!counted) return { status: 'not-found' }
	await recorded('shl-manifest')
	const jwe = await encryptedIps(link)
	if (jwe === null) return { status: 'not-found' }
	const file: ManifestFile =
		request.embeddedLengthMax !== undefined && jwe.length > request.embeddedLengthMax
			? { contentType: FHIR_JSON, location: fileLocation(manifestId) }
			: { contentType: FHIR_JSON, embedded: jwe }
	return { status: 'ok', manifest: { status: 'can-change', files: [file] } }
}

async function findLink(manifestId: string) {
	if (!MANIFEST_ID.test(manifestId)) return null
	const [link] = await db
		.select({
			...columnsOf(links, 'id', 'key', 'passcodeHash', 'attemptsLeft', 'expiresAt', 'revokedAt'),
			profileId: links.medicalProfileId,
			ownerId: medicalProfiles.userId,
		})
		.from(links)
		.innerJoin(medicalProfiles, eq(medicalProfiles.id, links.medicalProfileId))
		.where(eq(links.manifestId, manifestId))
	return link ?? null
}

/** The profile's summary now, as a compact JWE (dir, A256GCM) under the link's key. */
async function encryptedIps(link: { ownerId: string; profileId: number; key: string }) {
	const profile = await getProfileDetail(link.ownerId, link.profileId)
	if (!profile) return null
	const bundle = buildIps(profile, { author: env.FOUNDATION_LEGAL_NAME })
	return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(bundle)))
		.setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: FHIR_JSON })
		.encrypt(Buffer.from(link.key, 'base64url'))
}

/** How long a file's address from a manifest works: the specification asks for short-lived ones. */
export const FILE_LOCATION_SECONDS = 300

function locationSignature(manifestId: string, expires: number) {
	return createHmac('sha256', env.sessionSecrets[0]!).update(`shl-file:${manifestId}:${expires}`).digest('base64url')
}

function fileLocation(manifestId: string, now = Date.now()) {
	const expires = Math.floor(now / 1000) + FILE_LOCATION_SECONDS
	const url = new URL(`/shl/${manifestId}/file`, env.PUBLIC_URL)
	url.searchParams.set('token', `${expires}.${locationSignature(manifestId, expires)}`)
	return url.href
}

/**
 * The file a manifest pointed at by address: only with that address's signature, within its lifetime, and while the
 * link is still active (the access was counted and recorded when the manifest was given). Null otherwise.
 */
export async function manifestFile(manifestId: string, token: string | null, now = Date.now()) {
	const [expiresText, signature] = (token ?? '').split('.')
	const expires = Number(expiresText)
	if (!signature || !Number.isSafeInteger(expires) || expires * 1000 <= now) return null
	const expected = Buffer.from(locationSignature(manifestId, expires))
	const given = Buffer.from(signature)
	if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
	const link = await findLink(manifestId)
	if (!link || stateOf(link, new Date(now)) !== 'active') return null
	return encryptedIps(link)
}
