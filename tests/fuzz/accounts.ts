// The two people of the fuzz run: the attacker, whose session sends the signed-in requests, and the victim, whose
// data (made here through the JSON API) must come out of the run exactly as it went in.
import { createHash, randomBytes } from 'node:crypto'
import type { Answer, createClient } from './http.ts'

type Client = ReturnType<typeof createClient>

export type Session = { email: string; cookie: string; baseURL: string }

/** 1x1 PNG and a tiny PDF: real enough for the upload checks (magic bytes and extension). */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

export function sameOrigin(baseURL: string) {
	return { origin: baseURL }
}

/** Signs in through the page form, as a browser without JavaScript does; returns the session cookie. */
export async function signIn(client: Client, baseURL: string, email: string, password: string): Promise<Session> {
	const answer = await client.send({
		method: 'POST',
		path: '/login',
		headers: { ...sameOrigin(baseURL), 'content-type': 'application/x-www-form-urlencoded' },
		body: Buffer.from(new URLSearchParams({ email, password }).toString()),
	})
	const cookies = answer.ok ? [answer.headers['set-cookie'] ?? []].flat() : []
	const session = cookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('hmh_session=') && c.length > 'hmh_session='.length)
	if (!answer.ok || answer.status !== 302 || !session)
		throw new Error(`Sign-in as ${email} failed: ${answer.ok ? answer.status : answer.error}`)
	return { email, cookie: session, baseURL }
}

export async function call(
	client: Client,
	session: Session | null,
	method: string,
	path: string,
	json?: unknown,
): Promise<{ status: number; text: string; body: Buffer }> {
	const headers: Record<string, string> = session
		? { ...sameOrigin(session.baseURL), cookie: session.cookie, accept: 'application/json' }
		: { accept: 'application/json' }
	if (json !== undefined) headers['content-type'] = 'application/json'
	const answer: Answer = await client.send({
		method,
		path,
		headers,
		body: json === undefined ? undefined : Buffer.from(JSON.stringify(json)),
	})
	if (!answer.ok) throw new Error(`${method} ${path}: ${answer.error}`)
	return { status: answer.status, text: answer.body.toString('utf8'), body: answer.body }
}

/** A call that must succeed; answers its JSON. */
async function must<T = Record<string, unknown>>(
	client: Client,
	session: Session,
	method: string,
	path: string,
	json?: unknown,
): Promise<T> {
	const { status, text } = await call(client, session, method, path, json)
	if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${text.slice(0, 300)}`)
	return JSON.parse(text) as T
}

export function multipart(fields: Record<string, string>, files: Record<string, { name: string; type: string; bytes: Buffer }>) {
	const boundary = `----setup${randomBytes(8).toString('hex')}`
	const parts: Buffer[] = []
	for (const [name, value] of Object.entries(fields))
		parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
	for (const [name, file] of Object.entries(files))
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
			),
			file.bytes,
			Buffer.from('\r\n'),
		)
	parts.push(Buffer.from(`--${boundary}--\r\n`))
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

/** A multipart upload that must succeed (a JSON answer, or a page action's redirect). */
async function upload(
	client: Client,
	session: Session,
	path: string,
	fields: Record<string, string>,
	files: Parameters<typeof multipart>[1],
) {
	const form = multipart(fields, files)
	const answer = await client.send({
		method: 'POST',
		path,
		headers: { ...sameOrigin(session.baseURL), cookie: session.cookie, 'content-type': form.contentType, accept: 'application/json' },
		body: form.body,
	})
	if (!answer.ok || answer.status >= 400)
		throw new Error(`upload to ${path} failed: ${answer.ok ? `${answer.status} ${answer.body.toString().slice(0, 300)}` : answer.error}`)
	return answer.body.toString()
}

export type Holdings = {
	profileIds: number[]
	codeIds: number[]
	rowIds: number[]
	documentIds: number[]
	policyIds: number[]
	tokens: string[]
	/** Strings only this person's data holds: no answer to anyone else may contain them. */
	markers: string[]
}

/**
 * Gives a person an own profile and a family member's, each with a claimed sticker, a row in every section, a document,
 * a picture, an insurance card and a DNR document.
 */
export async function furnish(client: Client, session: Session, pins: [string, string], label: string): Promise<Holdings> {
	const marker = (what: string) => `${label}-${what}-${randomBytes(6).toString('hex')}`
	const markers: string[] = []
	const mark = (what: string) => {
		const m = marker(what)
		markers.push(m)
		return m
	}
	const own = await must<{ id: number }>(client, session, 'POST', '/api/medical-profile', {
		firstName: 'Vera',
		lastName: mark('last'),
		bloodType: 'O+',
		distinguishingMarks: mark('marks'),
	})
	const ownCode = await must<{ qrCodeId: number; qrCodeToken: string }>(client, session, 'POST', '/api/pin/claim', {
		pin: pins[0],
		medicalProfileId: own.id,
	})
	const family = await must<{ id: number }>(client, session, 'POST', '/api/medical-profile', {
		fullName: mark('child'),
		relationshipToUser: 'child',
		pin: pins[1],
	})
	const codes = await must<Array<{ id: number; token: string }>>(client, session, 'GET', '/api/qr-codes')
	const holdings: Holdings = {
		profileIds: [own.id, family.id],
		codeIds: codes.map((c) => c.id),
		rowIds: [],
		documentIds: [],
		policyIds: [],
		tokens: codes.map((c) => c.token),
		markers,
	}
	if (!holdings.codeIds.includes(ownCode.qrCodeId)) throw new Error('the claimed code is not listed')
	for (const profileId of holdings.profileIds) {
		const medicalProfileId = profileId
		const rows = await Promise.all([
			must<{ id: number }>(client, session, 'POST', '/api/emergency-contacts', {
				medicalProfileId,
				name: mark('contact'),
				relationship: 'Friend',
				phoneNumber: '+1 555 0100',
				email: 'friend@example.com',
			}),
			must<{ id: number }>(client, session, 'POST', '/api/allergies', {
				medicalProfileId,
				allergen: mark('allergen'),
				severity: 'Severe',
				reaction: 'Hives',
			}),
			must<{ id: number }>(client, session, 'POST', '/api/medications', {
				medicalProfileId,
				name: mark('medication'),
				dosage: '5 mg',
				frequency: 'daily',
			}),
			must<{ id: number }>(client, session, 'POST', '/api/medical-conditions', {
				medicalProfileId,
				condition: mark('condition'),
				status: 'Active',
			}),
		])
		holdings.rowIds.push(...rows.map((r) => r.id))
		const policy = await must<{ id: number }>(client, session, 'POST', '/api/insurance-policies', {
			medicalProfileId,
			provider: mark('insurer'),
			policyNumber: 'P-1',
		})
		holdings.policyIds.push(policy.id)
		await upload(
			client,
			session,
			'/api/upload',
			{ type: 'insurance-card', policyId: String(policy.id) },
			{ file: { name: 'card.png', type: 'image/png', bytes: PNG } },
		)
		const document = JSON.parse(
			await upload(
				client,
				session,
				'/api/upload-document',
				{ medicalProfileId: String(profileId) },
				{ document: { name: 'record.pdf', type: 'application/pdf', bytes: PDF } },
			),
		) as { id: number }
		holdings.documentIds.push(document.id)
		await upload(
			client,
			session,
			'/api/upload-profile-picture',
			{ medicalProfileId: String(profileId) },
			{ picture: { name: 'me.png', type: 'image/png', bytes: PNG } },
		)
		await must(client, session, 'PATCH', `/api/medical-profile/${profileId}`, { additionalNotes: mark('notes'), isScannable: true })
		// The DNR document has only the page form.
		await upload(
			client,
			session,
			'/medical-info',
			{ intent: 'save-dnr', profileId: String(profileId), dnrStatus: 'DNR', dnrOriginalLocation: mark('dnr') },
			{ document: { name: 'dnr.pdf', type: 'application/pdf', bytes: PDF } },
		)
	}
	return holdings
}

/** Everything the person's own JSON API shows about them, plus hashes of their files and code images. */
export async function snapshot(client: Client, session: Session, holdings: Holdings): Promise<Record<string, string>> {
	const paths = [
		'/api/auth/user',
		'/api/medical-profiles',
		'/api/medical-profile',
		'/api/qr-codes',
		'/api/user/access-level',
		'/api/consent/status',
	]
	for (const id of holdings.profileIds) {
		paths.push(`/api/medical-profile/${id}`, `/api/profiles/${id}/qr-codes`, `/files/picture/${id}`, `/files/dnr/${id}`)
		for (const section of [
			'emergency-contacts',
			'allergies',
			'medications',
			'medical-conditions',
			'insurance-policies',
			'medical-documents',
		])
			paths.push(`/api/${section}?profileId=${id}`)
	}
	for (const id of holdings.codeIds)
		paths.push(`/api/qr-codes/${id}`, `/api/qr-codes/${id}/scans`, `/api/qr-codes/${id}/image`, `/api/qr-codes/${id}/download?format=svg`)
	for (const id of holdings.documentIds) paths.push(`/files/document/${id}`)
	for (const id of holdings.policyIds) paths.push(`/files/card/${id}`)
	const out: Record<string, string> = {}
	for (const path of paths) {
		const { status, text, body } = await call(client, session, 'GET', path)
		// The download's file name carries today's date; the image bytes are what matter.
		const binary = path.startsWith('/files/') || path.endsWith('/image') || path.includes('/download')
		out[path] = `${status} ${binary ? `sha256:${createHash('sha256').update(body).digest('hex')} (${body.byteLength} bytes)` : text}`
	}
	return out
}
