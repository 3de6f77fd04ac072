import { createHash, randomBytes } from 'node:crypto'
import { and, countDistinct, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { db, type Executor } from '#db/client.ts'
import { helpingBlocks, helpingReports, qrCodes, qrScans, users } from '#db/schema.ts'
import { deliverSoon, queueEmail } from '#app/adapters/mail.server.ts'
import { browserAndDevice } from '#app/domain/analytics/collect.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { addressGroup } from '#app/utils/client-address.ts'
import { env } from '#app/utils/env.server.ts'
import { inertText } from '#app/utils/inert-text.ts'
import { hit } from '#app/utils/rate-limit.server.ts'
import { sealedData } from '#app/utils/sealed-data.server.ts'
import { HELPING_LIMITS, helpingText } from './helping-fields.ts'
import { HELPING_LABELS } from './helping-labels.ts'
import { loadResponderView, type ResponderProfile } from './responder.server.ts'
import { caregiverRecipients } from '#app/domain/profiles/caregivers.server.ts'

/** Reports one sender (an address; an IPv6 /64) may make about one code in REPORT_WINDOW_SECONDS. */
export const REPORTS_PER_SENDER = 6
export const REPORT_WINDOW_SECONDS = 10 * 60
/** Reports one sender may make about all codes in an hour: nobody walks a stack of stickers alerting every family. */
export const SENDER_REPORTS_PER_HOUR = 20
/** Different senders one code takes in an hour: a real emergency has a few helpers, never dozens. */
export const SENDERS_PER_CODE_PER_HOUR = 20
/** A sender's messages go out at most this often; what they send meanwhile waits and goes as one update. */
export const UPDATE_GAP_SECONDS = 5 * 60
/** How long a responder is known again by their cookie: their later messages are updates to the same people. */
export const RESPONDER_HOURS = 12

const text = (max: number) => z.preprocess(helpingText, z.string().max(max).optional())
const coordinate = (limit: number) =>
	z.preprocess((v) => (v === '' || v == null ? undefined : Number(v)), z.number().min(-limit).max(limit).optional())

/** What a responder may send: where they are, where the person is being taken, and (with JavaScript) a position. */
export const HelpingSchema = z.object({
	where: text(HELPING_LIMITS.where),
	hospital: text(HELPING_LIMITS.hospital),
	latitude: coordinate(90),
	longitude: coordinate(180),
	accuracy: z.preprocess((v) => (v === '' || v == null ? undefined : Number(v)), z.number().min(0).max(100_000).optional()),
})
export type HelpingInput = z.infer<typeof HelpingSchema>

const RESPONDER_KEY = /^[A-Za-z0-9_-]{43}$/
const hashKey = (key: string) => createHash('sha256').update(`helping:${key}`).digest('base64url')
export const newResponderKey = () => randomBytes(32).toString('base64url')
export const isResponderKey = (key: string | null | undefined): key is string => Boolean(key && RESPONDER_KEY.test(key))

/** The sender's address, as kept: a keyed hash of its network, never the address. */
const SENDER = 'helping-sender'
const senderHash = (address: string) => sealedData.lookupHash(addressGroup(address), SENDER)
const senderHashes = (address: string) => sealedData.lookupHashes(addressGroup(address), SENDER)

type Visit = { userAgent: string | null; address: string; now?: Date }

/** A report taken: how many were e-mailed (contacts among them), whether it updates an earlier one, whether it waits. */
export type HelpingReport = { recipients: number; contacts: number; update: boolean; held: boolean }

/**
 * Why a report is refused, in English: the responder's page shows the same refusal in their language (helping-labels).
 * A code that shows nothing is a 404 without words of its own: the page says the code is inactive.
 */
export const HELPING_REFUSALS = { off: HELPING_LABELS.en.off, blocked: HELPING_LABELS.en.blocked, tooMany: HELPING_LABELS.en.tooMany }
export type HelpingRefusal = keyof typeof HELPING_REFUSALS

/** Which refusal a `DomainError` from reportHelping is; null for any other error. */
export function helpingRefusal(error: unknown): HelpingRefusal | null {
	if (!(error instanceof DomainError)) return null
	return (Object.keys(HELPING_REFUSALS) as HelpingRefusal[]).find((reason) => HELPING_REFUSALS[reason] === error.message) ?? null
}

/**
 * "I'm helping this person now": records the report and an emergency access in the code's scan history (with the
 * hospital as its medical facility). The first report from a sender e-mails the profile's account holder and every
 * emergency contact the owner opted in at once; what the same sender sends within UPDATE_GAP_SECONDS of their last
 * e-mail waits and goes out as one update (sendWaitingUpdates). Limits go by sender, so nobody can use up a real
 * responder's allowance; a sender the owner blocked, a code that shows nothing, or alerts turned off send nothing.
 */
export async function reportHelping(token: string, responderKey: string, input: HelpingInput, visit: Visit): Promise<HelpingReport> {
	const view = await loadResponderView(token)
	if (view.state !== 'active') throw new DomainError(404, 'QR code not found')
	const { profile, codeId } = view
	if (!profile.helpingAlerts) throw new DomainError(403, HELPING_REFUSALS.off)
	const now = visit.now ?? new Date()
	const sender = senderHash(visit.address)
	const keyHash = hashKey(responderKey)
	if (await isBlocked(codeId, visit.address, keyHash)) throw new DomainError(403, HELPING_REFUSALS.blocked)
	if (!(await withinLimits(codeId, sender, now))) throw new DomainError(429, HELPING_REFUSALS.tooMany, undefined, REPORT_WINDOW_SECONDS)

	const location = input.latitude != null && input.longitude != null ? formatLocation(input) : null
	const message =
		[input.where && `Where: ${input.where}`, input.hospital && `Hospital: ${input.hospital}`].filter(Boolean).join('\n') || null
	const result = await db.transaction(async (tx) => {
		const since = new Date(now.getTime() - RESPONDER_HOURS * 3_600_000)
		const [earlier] = await tx
			.select({ id: helpingReports.id })
			.from(helpingReports)
			.where(
				and(
					eq(helpingReports.qrCodeId, codeId),
					or(eq(helpingReports.responderKeyHash, keyHash), eq(helpingReports.reporterHash, sender)),
					gt(helpingReports.createdAt, since),
				),
			)
			.limit(1)
		const update = Boolean(earlier)
		const lastMailed = await lastMailedBy(tx, codeId, sender)
		const held = lastMailed != null && now.getTime() - lastMailed.getTime() < UPDATE_GAP_SECONDS * 1000
		await tx.insert(helpingReports).values({
			qrCodeId: codeId,
			medicalProfileId: profile.id,
			responderKeyHash: keyHash,
			reporterHash: sender,
			message,
			location,
			createdAt: now,
		})
		await tx.insert(qrScans).values({
			qrCodeId: codeId,
			scannedAt: now,
			scannerType: 'emergency_responder',
			deviceType: browserAndDevice(visit.userAgent).deviceType,
			isEmergencyAccess: true,
			medicalFacility: input.hospital ?? null,
		})
		const recipients = held ? await recipientsOf(tx, view.ownerId, profile) : await mailWaiting(tx, view, sender, update, now)
		return { recipients: recipients.length, contacts: recipients.filter((r) => r.contact).length, update, held }
	})
	if (!result.held) deliverSoon()
	return result
}

async function isBlocked(codeId: number, address: string, keyHash: string) {
	const [block] = await db
		.select({ id: helpingBlocks.id })
		.from(helpingBlocks)
		.where(
			and(
				eq(helpingBlocks.qrCodeId, codeId),
				or(inArray(helpingBlocks.reporterHash, senderHashes(address)), eq(helpingBlocks.responderKeyHash, keyHash)),
			),
		)
		.limit(1)
	return Boolean(block)
}

/** Per sender and code, per sender across codes, and a ceiling of different senders per code: counted before anything is sent. */
async function withinLimits(codeId: number, sender: string, now: Date) {
	const [known] = await db
		.select({
			senders: countDistinct(helpingReports.reporterHash),
			mine: sql<number>`count(*) filter (where ${helpingReports.reporterHash} = ${sender})::int`,
		})
		.from(helpingReports)
		.where(and(eq(helpingReports.qrCodeId, codeId), gt(helpingReports.createdAt, new Date(now.getTime() - 3_600_000))))
	if (!known?.mine && (known?.senders ?? 0) >= SENDERS_PER_CODE_PER_HOUR) return false
	const perCode = await hit(`helping:${codeId}:${sender}`, REPORTS_PER_SENDER, REPORT_WINDOW_SECONDS)
	if (!perCode.allowed) return false
	return (await hit(`helping-sender:${sender}`, SENDER_REPORTS_PER_HOUR, 3600)).allowed
}

async function lastMailedBy(tx: Executor, codeId: number, sender: string) {
	const [row] = await tx
		.select({ at: sql<Date | null>`max(${helpingReports.mailedAt})`.mapWith(helpingReports.mailedAt) })
		.from(helpingReports)
		.where(and(eq(helpingReports.qrCodeId, codeId), eq(helpingReports.reporterHash, sender), isNotNull(helpingReports.mailedAt)))
	return row?.at ?? null
}

type Recipient = {
	email: string
	userId: string | null
	contact: { name: string; relationship: string } | null
	/** Someone the owner shares the profile with (a caregiver), rather than the account holder. */
	caregiver?: boolean
}

/** The account holder, the profile's caregivers, then each opted-in contact with an address; nobody twice. */
async function recipientsOf(tx: Executor, ownerId: string, profile: ResponderProfile): Promise<Recipient[]> {
	const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, ownerId))
	const seen = new Set<string>()
	const recipients: Recipient[] = []
	const add = (recipient: Recipient) => {
		const address = recipient.email.toLowerCase()
		if (seen.has(address)) return
		seen.add(address)
		recipients.push(recipient)
	}
	if (owner) add({ email: owner.email, userId: ownerId, contact: null })
	for (const caregiver of await caregiverRecipients(tx, profile.id))
		add({ email: caregiver.email, userId: caregiver.userId, contact: null, caregiver: true })
	for (const c of profile.emergencyContacts)
		if (c.alertOptIn && c.email) add({ email: c.email, userId: null, contact: { name: c.name, relationship: c.relationship } })
	return recipients
}

type ActiveView = Extract<Awaited<ReturnType<typeof loadResponderView>>, { state: 'active' }>

/**
 * Sends, as one message to each recipient, every report of this sender about this code that has not gone out yet, and
 * marks them sent. Returns who was written to.
 */
async function mailWaiting(tx: Executor, view: ActiveView, sender: string, update: boolean, now: Date) {
	const waiting = await tx
		.update(helpingReports)
		.set({ mailedAt: now })
		.where(and(eq(helpingReports.qrCodeId, view.codeId), eq(helpingReports.reporterHash, sender), isNull(helpingReports.mailedAt)))
		.returning({
			id: helpingReports.id,
			message: helpingReports.message,
			location: helpingReports.location,
			createdAt: helpingReports.createdAt,
		})
	if (!waiting.length) return []
	waiting.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
	const recipients = await recipientsOf(tx, view.ownerId, view.profile)
	const alert: Alert = {
		firstName: firstNameOf(view.profile),
		name: fullNameOf(view.profile),
		codeName: view.codeName,
		reports: waiting,
		update,
		now,
	}
	for (const recipient of recipients)
		await queueEmail(tx, {
			to: recipient.email,
			...(recipient.userId ? { userId: recipient.userId } : {}),
			type: 'helping-alert',
			...helpingEmail(alert, recipient.contact, recipient.caregiver),
		})
	await tx
		.update(helpingReports)
		.set({ recipients: recipients.length })
		.where(
			inArray(
				helpingReports.id,
				waiting.map((r) => r.id),
			),
		)
	return recipients
}

/**
 * The 'helping-updates' job, every minute: what senders wrote since their last e-mail goes out as one update once
 * UPDATE_GAP_SECONDS have passed since it, unless the owner blocked them, turned alerts off, or the code stopped showing
 * the profile meanwhile (then it is kept for the scan history, unsent).
 */
export async function sendWaitingUpdates(now = new Date()) {
	const groups = await db
		.selectDistinct({ codeId: helpingReports.qrCodeId, sender: helpingReports.reporterHash, token: qrCodes.token })
		.from(helpingReports)
		.innerJoin(qrCodes, eq(qrCodes.id, helpingReports.qrCodeId))
		.where(and(isNull(helpingReports.mailedAt), gt(helpingReports.createdAt, new Date(now.getTime() - RESPONDER_HOURS * 3_600_000))))
	let sent = 0
	for (const group of groups) {
		const view = await loadResponderView(group.token)
		if (view.state !== 'active' || !view.profile.helpingAlerts) continue
		const done = await db.transaction(async (tx) => {
			const [blocked] = await tx
				.select({ id: helpingBlocks.id })
				.from(helpingBlocks)
				.where(and(eq(helpingBlocks.qrCodeId, group.codeId), eq(helpingBlocks.reporterHash, group.sender)))
			if (blocked) return false
			const last = await lastMailedBy(tx, group.codeId, group.sender)
			if (last && now.getTime() - last.getTime() < UPDATE_GAP_SECONDS * 1000) return false
			return (await mailWaiting(tx, view, group.sender, Boolean(last), now)).length > 0
		})
		if (done) sent++
	}
	if (sent) deliverSoon()
	return { sent }
}

function formatLocation({ latitude, longitude, accuracy }: HelpingInput) {
	return `${latitude!.toFixed(5)},${longitude!.toFixed(5)}${accuracy != null ? ` ±${Math.round(accuracy)} m` : ''}`
}

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' })
const clockFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: 'America/New_York' })

type Report = { message: string | null; location: string | null; createdAt: Date }
type Alert = { firstName: string; name: string; codeName: string; reports: Report[]; update: boolean; now: Date }

const firstNameOf = (profile: Pick<ResponderProfile, 'firstName' | 'fullName'>) =>
	(profile.firstName?.trim() || profile.fullName?.trim().split(/\s+/)[0] || 'the person').slice(0, 40)
const fullNameOf = (profile: Pick<ResponderProfile, 'fullName' | 'firstName'>) => profile.fullName?.trim() || firstNameOf(profile)

/** One report as the responder wrote it, quoted as inert text: a stranger's words, never a link. */
function reportLines(report: Report) {
	const lines = (report.message ?? '').split('\n').filter(Boolean)
	const said = lines.map((line) =>
		line.startsWith('Where: ')
			? `Where they are: ${inertText(line.slice(7))}`
			: line.startsWith('Hospital: ')
				? `Taken to hospital: ${inertText(line.slice(10))}`
				: inertText(line),
	)
	if (report.location) said.push(`Shared location: ${mapLink(report.location)} (${report.location})`)
	return said
}

/**
 * The message to the account holder (contact null) or to one emergency contact: the same facts, addressed to each.
 * The subject is a fixed phrase with the first name only; what the responder typed is only ever in the body, inert.
 */
export function helpingEmail(alert: Alert, contact: { name: string; relationship: string } | null, caregiver = false) {
	const { firstName, name, reports, update } = alert
	const when = `${timeFormat.format(alert.now)} ET`
	const details =
		reports.length === 1
			? reportLines(reports[0]!).join('\n') || 'They did not say where they are.'
			: reports
					.map((report) => `At ${clockFormat.format(report.createdAt)} ET: ${reportLines(report).join('; ') || 'no details'}`)
					.join('\n')
	const subject = update ? `Update: someone is helping ${firstName}` : `Someone is helping ${firstName} now`
	const opening = update
		? `The person helping ${name} sent ${reports.length === 1 ? 'an update' : `${reports.length} updates`} (as of ${when}).`
		: `At ${when}, someone who scanned ${name}'s emergency QR code (${alert.codeName}) said they are helping ${name} now.`
	const why = contact
		? `You are receiving this because you are listed as ${name}'s emergency contact (${contact.relationship}).`
		: caregiver
			? `You are receiving this because you help keep ${name}'s profile, which its owner shares with you on Hit Me Helpers.`
			: `You are receiving this because ${name}'s profile is on your Hit Me Helpers account. You can turn these alerts off, or block a sender, on the Medical Information and QR Codes pages: ${new URL('/medical-info', env.PUBLIC_URL)}`
	return {
		subject,
		text: [
			opening,
			details,
			'What they wrote is quoted as they typed it; we have not checked it. They can see the emergency information on the code, but we do not know who they are or how to reach them. If you think this is a mistake or a prank, try to reach the person directly. In an emergency, call 911.',
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
			mailedAt: helpingReports.mailedAt,
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

/**
 * The owner's view of one of their code's reports, newest first: what was said, whether it went out, and whether its
 * sender is blocked. The caller has checked the code is theirs.
 */
export async function helpingReportsOf(codeId: number, limit = 50) {
	const rows = await db
		.select({
			id: helpingReports.id,
			createdAt: helpingReports.createdAt,
			message: helpingReports.message,
			location: helpingReports.location,
			recipients: helpingReports.recipients,
			mailedAt: helpingReports.mailedAt,
			blocked: sql<boolean>`exists (select 1 from ${helpingBlocks} b where b.qr_code_id = ${helpingReports.qrCodeId}
				and (b.reporter_hash = ${helpingReports.reporterHash} or b.responder_key_hash = ${helpingReports.responderKeyHash}))`,
		})
		.from(helpingReports)
		.where(eq(helpingReports.qrCodeId, codeId))
		.orderBy(desc(helpingReports.createdAt), desc(helpingReports.id))
		.limit(limit)
	return rows
}

/**
 * The owner blocks (or unblocks) the sender of one of their code's reports: nothing more from that address's network or
 * that responder's cookie is taken for the code, and what they sent that was still waiting never goes out.
 */
export async function setSenderBlocked(userId: string, reportId: number, blocked: boolean) {
	const [report] = await db
		.select({
			codeId: helpingReports.qrCodeId,
			reporterHash: helpingReports.reporterHash,
			responderKeyHash: helpingReports.responderKeyHash,
		})
		.from(helpingReports)
		.innerJoin(qrCodes, eq(qrCodes.id, helpingReports.qrCodeId))
		.where(and(eq(helpingReports.id, reportId), eq(qrCodes.userId, userId)))
	if (!report) throw new DomainError(404, 'Report not found')
	const { codeId } = report
	// Reports from before senders were kept have no sender: the responder's cookie is all there is to block.
	const reporterHash = report.reporterHash || `responder:${report.responderKeyHash}`
	if (!blocked) {
		await db
			.delete(helpingBlocks)
			.where(
				and(
					eq(helpingBlocks.qrCodeId, codeId),
					or(eq(helpingBlocks.reporterHash, reporterHash), eq(helpingBlocks.responderKeyHash, report.responderKeyHash)),
				),
			)
		return
	}
	await db.insert(helpingBlocks).values({ qrCodeId: codeId, reporterHash, responderKeyHash: report.responderKeyHash }).onConflictDoNothing()
}
