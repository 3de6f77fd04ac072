import { compactDecrypt } from 'jose'
import { z } from 'zod'
import { db } from '#db/client.ts'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { changeProfile } from '#app/domain/profiles/files.server.ts'
import { ownedProfile } from '#app/domain/profiles/access.server.ts'
import { getProfileDetail } from '#app/domain/profiles/profiles.server.ts'
import { addRow } from '#app/domain/profiles/sections.server.ts'
import { toAllergyView, toConditionView } from '#app/domain/profiles/views.ts'
import { openManifest, type LinkReader } from './health-links.server.ts'
import { chooseItems, proposeImport, toImportView } from './import-proposal.ts'
import { parseSummaryJson, readBundle, SUMMARY_MAX_BYTES, SUMMARY_MESSAGES } from './ips-read.ts'
import { decodeShlink } from './shlink.ts'

// Filling a profile from a health summary: a FHIR Bundle sent as it is (JSON), as the text of a file, or through a SMART
// Health Link this app made. Nothing is written until the person confirms the items they chose, and then only through
// the profile's own functions (addRow, changeProfile): its checks, encryption and access record all apply.

/**
 * Where the summary comes from. A link is read only when it is this app's own (its manifest on PUBLIC_URL's origin),
 * in-process, as a SMART Health Link viewer reads one: the manifest (with the passcode, whose attempts it spends), then
 * its file decrypted with the key inside the link. The app fetches nothing from the network, so no link can make it
 * call another server.
 */
export type SummarySource = { bundle: unknown } | { bundleText: string } | { shlink: string; passcode?: string }

export const LINK_MESSAGES = {
	notALink: 'This is not a SMART Health Link: paste the whole link, starting with shlink:/',
	otherIssuer: (origin: string) =>
		`Only SMART Health Links made by this app (${origin}) can be read here; links from other issuers are refused. Download that summary as a file and upload it instead.`,
	gone: 'This SMART Health Link does not exist, was revoked or has expired.',
	needsPasscode: 'This SMART Health Link has a passcode: enter it to read the summary.',
	wrongPasscode: (left: number) =>
		left > 0
			? `This passcode is wrong: after ${left} more wrong ${left === 1 ? 'try' : 'tries'} the link stops working.`
			: 'This passcode is wrong, and the link has had all its tries: it no longer opens. Ask for a new link.',
	undecryptable: 'This link’s key does not open its summary: the link was copied incompletely or changed.',
} as const

/** Who reads the summary, as the link's access record names the reader. */
export const IMPORT_RECIPIENT = 'Hit Me Helpers (filling a profile from this summary)'

const PayloadSchema = z.object({
	url: z.string().max(2000),
	key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
})

/** The manifest id of a link on this app's own origin; undefined for any other site. */
function ownManifestId(url: string) {
	const own = new URL(env.PUBLIC_URL).origin
	let parsed: URL
	try {
		parsed = new URL(url)
	} catch {
		return undefined
	}
	if (parsed.origin !== own) return undefined
	return /^\/shl\/([A-Za-z0-9_-]{43})$/.exec(parsed.pathname)?.[1] ?? null
}

/** The decrypted summary a link of this app gives, as text. */
async function openOwnLink(link: string, passcode: string | undefined, reader: LinkReader) {
	let payload: z.output<typeof PayloadSchema>
	try {
		payload = PayloadSchema.parse(decodeShlink(link.trim()))
	} catch {
		throw new DomainError(400, LINK_MESSAGES.notALink, 'shlink')
	}
	const manifestId = ownManifestId(payload.url)
	if (manifestId === undefined) throw new DomainError(400, LINK_MESSAGES.otherIssuer(new URL(env.PUBLIC_URL).origin), 'shlink')
	if (manifestId === null) throw new DomainError(400, LINK_MESSAGES.gone, 'shlink')
	const answer = await openManifest(manifestId, { recipient: IMPORT_RECIPIENT, ...(passcode ? { passcode } : {}) }, reader)
	if (answer.status === 'not-found') throw new DomainError(400, LINK_MESSAGES.gone, 'shlink')
	if (answer.status === 'passcode')
		throw new DomainError(400, passcode ? LINK_MESSAGES.wrongPasscode(answer.remainingAttempts) : LINK_MESSAGES.needsPasscode, 'passcode')
	const file = answer.manifest.files[0]
	// Asked without embeddedLengthMax, the manifest embeds its file.
	if (!file || !('embedded' in file)) throw new Error('A manifest of this app without its embedded file')
	let plaintext: Uint8Array
	try {
		;({ plaintext } = await compactDecrypt(file.embedded, Buffer.from(payload.key, 'base64url'), {
			keyManagementAlgorithms: ['dir'],
			contentEncryptionAlgorithms: ['A256GCM'],
		}))
	} catch {
		throw new DomainError(400, LINK_MESSAGES.undecryptable, 'shlink')
	}
	if (plaintext.byteLength > SUMMARY_MAX_BYTES) throw new DomainError(413, SUMMARY_MESSAGES.tooLarge, 'shlink')
	return new TextDecoder().decode(plaintext)
}

async function readSummary(source: SummarySource, reader: LinkReader) {
	if ('bundle' in source) return readBundle(source.bundle, 'bundle')
	if ('bundleText' in source) return readBundle(parseSummaryJson(source.bundleText, 'bundle'), 'bundle')
	return readBundle(parseSummaryJson(await openOwnLink(source.shlink, source.passcode, reader), 'shlink'), 'shlink')
}

async function heldProfile(userId: string, profileId: number) {
	// Like the summary it reads, the import is the owner's: a caregiver is refused (403), anyone else finds nothing.
	await ownedProfile(userId, profileId)
	const profile = await getProfileDetail(userId, profileId)
	if (!profile) throw new DomainError(404, 'Profile not found')
	return profile
}

/**
 * What the summary would add to one of the person's profiles, beside what it holds (another person's profile is unknown,
 * checked before any link is opened). `carried` is the summary cut down to what was read, as JSON: a review form sends it
 * back with the confirmation, to be read again.
 */
export async function previewImport(userId: string, profileId: number, source: SummarySource, reader: LinkReader) {
	const profile = await heldProfile(userId, profileId)
	const summary = await readSummary(source, reader)
	return { proposal: toImportView(proposeImport(summary, profile)), carried: JSON.stringify(summary.reduced) }
}

/**
 * Adds the items chosen (ids of the proposal the same summary gives now): the rows in one transaction, then the DNR
 * status. Every item is checked before anything is written, so a refusal leaves the profile as it was.
 */
export async function applyImport(userId: string, profileId: number, source: SummarySource, accept: readonly string[], reader: LinkReader) {
	const profile = await heldProfile(userId, profileId)
	const chosen = chooseItems(proposeImport(await readSummary(source, reader), profile), accept)
	const rows = await db.transaction(async (tx) => {
		const allergies = []
		for (const values of chosen.allergies) allergies.push(await addRow(userId, 'allergies', profileId, values, tx))
		const medications = []
		for (const values of chosen.medications) medications.push(await addRow(userId, 'medications', profileId, values, tx))
		const conditions = []
		for (const values of chosen.conditions) conditions.push(await addRow(userId, 'conditions', profileId, values, tx))
		return { allergies, medications, conditions }
	})
	if (chosen.dnrStatus) await changeProfile(userId, profileId, { dnr: { status: chosen.dnrStatus } })
	return {
		allergies: rows.allergies.map(toAllergyView),
		medications: rows.medications,
		conditions: rows.conditions.map(toConditionView),
		dnrStatus: chosen.dnrStatus,
	}
}
export type ImportResult = Awaited<ReturnType<typeof applyImport>>
