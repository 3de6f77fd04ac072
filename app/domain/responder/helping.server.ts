import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, gt } from 'drizzle-orm'
import { z } from 'zod'
import { db } from '#db/client.ts'
import { helpingReports, qrScans, users } from '#db/schema.ts'
import { deliverSoon, queueEmail } from '#app/adapters/mail.server.ts'
import { browserAndDevice } from '#app/domain/analytics/collect.server.ts'
import { env } from '#app/utils/env.server.ts'
import { hit } from '#app/utils/rate-limit.server.ts'
import { loadResponderView } from './responder.server.ts'

/** Reports one code takes in REPORT_WINDOW_SECONDS: enough for a responder's updates, never a flood of mail. */
export const REPORTS_PER_CODE = 6
const REPORT_WINDOW_SECONDS = 10 * 60
/** How long a responder is known again by their cookie: their later messages are updates to the same people. */
export const RESPONDER_HOURS = 12

const text = (max: number) =>
	z.preprocess((v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() || undefined : undefined), z.string().max(max).optional())
const coordinate = (limit: number) =>
	z.preprocess((v) => (v === '' || v == null ? undefined : Number(v)), z.number().min(-limit).max(limit).optional())

/** What a responder may send: where they are, where the person is being taken, and (with JavaScript) a position. */
export const HelpingSchema = z.object({
	where: text(300),
	hospital: text(200),
	latitude: coordinate(90),
	longitude: coordinate(180),
	accuracy: z.preprocess((v) => (v === '' || v == null ? undefined : Number(v)), z.number().min(0).max(100_000).optional()),
})
export type HelpingInput = z.infer<typeof HelpingSchema>

const RESPONDER_KEY = /^[A-Za-z0-9_-]{43}$/
const hashKey = (key: string) => createHash('sha256').update(`helping:${key}`).digest('base64url')
export const newResponderKey = () => randomBytes(32).toString('base64url')
export const isResponderKey = (key: string | null | undefined): key is string => Boolean(key && RESPONDER_KEY.test(key))

type Visit = { userAgent: string | null; now?: Date }

export type HelpingResult =
	{ ok: true; recipients: number; contacts: number; update: boolean } | { ok: false; reason: 'not-found' | 'off' | 'too-many' }

/**
 * "I'm helping this person now": e-mails the profile's account holder and every emergency contact the owner opted in
 * (with an e-mail address) at once, records an emergency access in the code's scan history (with the hospital as its
 * medical facility), and keeps what was sent. A responder's later messages (same key, within RESPONDER_HOURS) go out as
 * updates. Nothing is sent for a code that shows nothing, or when the owner turned alerts off.
 */
export async function reportHelping(token: string, responderKey: string, input: HelpingInput, visit: Visit): Promise<HelpingResult> {
	const view = await loadResponderView(token)
	if (view.state !== 'active') return { ok: false, reason: 'not-found' }
	const { profile } = view
	if (!profile.helpingAlerts) return { ok: false, reason: 'off' }
	if (!(await hit(`helping:${view.codeId}`, REPORTS_PER_CODE, REPORT_WINDOW_SECONDS)).allowed) return { ok: false, reason: 'too-many' }
	const now = visit.now ?? new Date()
	const keyHash = hashKey(responderKey)
	const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, view.ownerId))
	const contacts = profile.emergencyContacts.filter((c) => c.alertOptIn && c.email)
	const location = input.latitude != null && input.longitude != null ? formatLocation(input) : null
	const message =
		[input.where && `Where: ${input.where}`, input.hospital && `Hospital: ${input.hospital}`].filter(Boolean).join('\n') || null
	const result = await db.transaction(async (tx) => {
		const [earlier] = await tx
			.select({ id: helpingReports.id })
			.from(helpingReports)
			.where(
				and(
					eq(helpingReports.qrCodeId, view.codeId),
					eq(helpingReports.responderKeyHash, keyHash),
					gt(helpingReports.createdAt, new Date(now.getTime() - RESPONDER_HOURS * 3_600_000)),
				),
			)
			.limit(1)
		const update = Boolean(earlier)
		const alert = { name: profile.fullName ?? 'the person', codeName: view.codeName, input, location, update, now }
		const recipients = new Set<string>()
		if (owner) {
			recipients.add(owner.email.toLowerCase())
			await queueEmail(tx, { to: owner.email, userId: view.ownerId, type: 'helping-alert', ...helpingEmail(alert, null) })
		}
		for (const contact of contacts) {
			if (recipients.has(contact.email!.toLowerCase())) continue
			recipients.add(contact.email!.toLowerCase())
			await queueEmail(tx, { to: contact.email!, type: 'helping-alert', ...helpingEmail(alert, contact) })
		}
		await tx.insert(helpingReports).values({
			qrCodeId: view.codeId,
			medicalProfileId: profile.id,
			responderKeyHash: keyHash,
			message,
			location,
			recipients: recipients.size,
			createdAt: now,
		})
		await tx.insert(qrScans).values({
			qrCodeId: view.codeId,
			scannedAt: now,
			scannerType: 'emergency_responder',
			deviceType: browserAndDevice(visit.userAgent).deviceType,
			isEmergencyAccess: true,
			medicalFacility: input.hospital ?? null,
		})
		return { ok: true as const, recipients: recipients.size, contacts: recipients.size - (owner ? 1 : 0), update }
	})
	await deliverSoon()
	return result
}

function formatLocation({ latitude, longitude, accuracy }: HelpingInput) {
	return `${latitude!.toFixed(5)},${longitude!.toFixed(5)}${accuracy != null ? ` ±${Math.round(accuracy)} m` : ''}`
}

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' })

type Alert = { name: string; codeName: string; input: HelpingInput; location: string | null; update: boolean; now: Date }

/** The message to the account holder (contact null) or to one emergency contact: the same facts, addressed to each. */
export function helpingEmail(alert: Alert, contact: { name: string; relationship: string } | null) {
	const { name, input, location, update } = alert
	const when = `${timeFormat.format(alert.now)} ET`
	const details = [
		input.where ? `Where they are: ${input.where}` : null,
		input.hospital ? `Taken to hospital: ${input.hospital}` : null,
		location ? `Shared location: ${mapLink(location)} (${location})` : null,
	].filter(Boolean)
	const subject = update
		? `Update on ${name}${input.hospital ? `: taken to ${input.hospital}` : ' from the person helping'}`
		: `Someone is helping ${name} now`
	const opening = update
		? `The person helping ${name} sent an update at ${when}.`
		: `At ${when}, someone who scanned ${name}'s emergency QR code (${alert.codeName}) said they are helping ${name} now.`
	const why = contact
		? `You are receiving this because you are listed as ${name}'s emergency contact (${contact.relationship}).`
		: `You are receiving this because ${name}'s profile is on your Hit Me Helpers account. You can turn these alerts off on the Medical Information page: ${new URL('/medical-info', env.PUBLIC_URL)}`
	return {
		subject: subject.slice(0, 200),
		text: [
			opening,
			details.length ? details.join('\n') : 'They did not say where they are.',
			'They can see the emergency information on the code, but we do not know who they are or how to reach them. If you think this is a mistake or a prank, try to reach the person directly. In an emergency, call 911.',
			why,
			'Hit Me Helpers',
		].join('\n\n'),
	}
}

const mapLink = (location: string) => {
	const [lat, lon] = location.split(/[ ,]/)
	return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`
}

/** What this responder sent from this code lately, newest first: their confirmation page. */
export async function reportsBy(codeId: number, responderKey: string, now = new Date()) {
	return db
		.select({
			createdAt: helpingReports.createdAt,
			message: helpingReports.message,
			location: helpingReports.location,
			recipients: helpingReports.recipients,
		})
		.from(helpingReports)
		.where(
			and(
				eq(helpingReports.qrCodeId, codeId),
				eq(helpingReports.responderKeyHash, hashKey(responderKey)),
				gt(helpingReports.createdAt, new Date(now.getTime() - RESPONDER_HOURS * 3_600_000)),
			),
		)
		.orderBy(desc(helpingReports.createdAt), desc(helpingReports.id))
		.limit(20)
}
