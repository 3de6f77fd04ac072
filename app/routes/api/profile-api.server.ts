import type { RequestArgs } from '#app/utils/request.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { addDocument, savePolicy } from '#app/domain/profiles/files.server.ts'
import { ownProfileId } from '#app/domain/profiles/profiles.server.ts'
import {
	AllergySchema,
	ConditionSchema,
	ContactSchema,
	CREATE_PROFILE_FIRST,
	DocumentLinkSchema,
	IdSchema,
	InsurancePolicySchema,
	MedicationSchema,
} from '#app/domain/profiles/schemas.ts'
import { addRow, deleteRow, getRow, listRows, SECTION_NOUNS, updateRow, type Section } from '#app/domain/profiles/sections.server.ts'
import { toAllergyView, toConditionView, toDocumentView, toPolicyView } from '#app/domain/profiles/views.ts'
import { jsonError, readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { readForm } from '#app/utils/form-body.server.ts'
import { keepUpload } from '#app/domain/uploads/pending.server.ts'
import { uploadLimit } from '#app/domain/uploads/uploads.server.ts'

/** Private data: never kept by a shared cache. */
export function json(value: unknown, status = 200) {
	return Response.json(value, { status, headers: { 'cache-control': 'private, no-store' } })
}

/**
 * Signed in; another person's profile or row is a 404 with the same message as an unknown id. A refusal is thrown on
 * to resource(), which answers it (one that names its field as the schema's refusals do, with the message under `errors`).
 */
export async function profileApi(args: RequestArgs, run: (userId: string) => Promise<Response>) {
	return run(await requireApiUserId(args))
}

/** An id in a body or query: missing or malformed is a 400 naming the field. */
export function requiredId(value: unknown, field: string) {
	const id = IdSchema.safeParse(value ?? undefined)
	if (id.success) return id.data
	const message = `${field} is required`
	throw jsonError(400, message, { errors: { [field]: [message] } })
}

/** An id in the path: malformed reads as unknown. */
export function pathId(value: string | undefined, notFound: string) {
	const id = IdSchema.safeParse(value)
	if (id.success) return id.data
	throw new DomainError(404, notFound)
}

const SCHEMAS: Partial<Record<Section, z.ZodType>> = {
	contacts: ContactSchema,
	allergies: AllergySchema,
	medications: MedicationSchema,
	conditions: ConditionSchema,
}
/** Spec 001 §7: which sections take POST (a document's file arrives first through /api/upload-document) and PUT. */
const CAN_POST: Section[] = ['contacts', 'allergies', 'medications', 'conditions', 'policies', 'documents']
const CAN_PUT: Section[] = ['medications', 'conditions', 'policies']

function show(section: Section, row: unknown) {
	if (section === 'policies') return toPolicyView(row as Parameters<typeof toPolicyView>[0])
	if (section === 'documents') return toDocumentView(row as Parameters<typeof toDocumentView>[0])
	if (section === 'allergies') return toAllergyView(row as Parameters<typeof toAllergyView>[0])
	if (section === 'conditions') return toConditionView(row as Parameters<typeof toConditionView>[0])
	return row
}

/**
 * Spec 001 §7 for one section: GET /api/{section}?profileId= (or ?medicalProfileId=) lists a profile's rows, POST adds
 * one (a document names the URL /api/upload-document answered), PUT /api/{section}/{id} changes one (medications,
 * conditions, policies) and DELETE removes it.
 */
export function sectionResource(section: Section) {
	return resource<RequestArgs & { params: { id?: string } }>(({ params }) => {
		if (params.id === undefined)
			return {
				GET: (args) => list(args, section),
				...(CAN_POST.includes(section) && { POST: (args) => add(args, section) }),
			}
		const rowId = params.id
		return {
			...(CAN_PUT.includes(section) && { PUT: (args) => change(args, section, rowId) }),
			DELETE: (args) => remove(args, section, rowId),
		}
	})
}

function list(args: RequestArgs, section: Section) {
	return profileApi(args, async (userId) => {
		const profileId = queriedProfile(new URL(args.request.url)) ?? requiredId(undefined, 'profileId')
		const rows = await listRows(userId, section, profileId)
		return json(rows.map((row) => show(section, row)))
	})
}

function add(args: RequestArgs, section: Section) {
	return profileApi(args, async (userId) => {
		const body = await readBody(args.request)
		return save(userId, section, body, { profileId: await addingTo(userId, body, new URL(args.request.url)) })
	})
}

/**
 * The profile named in the query: ?profileId= or, as the spec's entities name it, ?medicalProfileId=. Undefined when
 * neither is given; a malformed id, or two that differ, is a 400.
 */
function queriedProfile(url: URL) {
	const named = (['profileId', 'medicalProfileId'] as const)
		.filter((field) => url.searchParams.has(field))
		.map((field) => requiredId(url.searchParams.get(field), field))
	if (named.length === 2 && named[0] !== named[1]) {
		const message = 'profileId and medicalProfileId name different profiles'
		throw jsonError(400, message, { errors: { medicalProfileId: [message] } })
	}
	return named[0]
}

/**
 * The profile a new row goes to: medicalProfileId in the body, else ?profileId= (or ?medicalProfileId=) as the lists
 * take it, else (the spec's
 * medication, condition, policy and document payloads name none) the person's own profile.
 */
async function addingTo(userId: string, body: Record<string, unknown>, url: URL) {
	if (Object.hasOwn(body, 'medicalProfileId')) return requiredId(body.medicalProfileId, 'medicalProfileId')
	const queried = queriedProfile(url)
	if (queried) return queried
	const own = await ownProfileId(userId)
	if (own) return own
	throw jsonError(400, CREATE_PROFILE_FIRST, { errors: { medicalProfileId: [CREATE_PROFILE_FIRST] } })
}

function change(args: RequestArgs, section: Section, id: string) {
	return profileApi(args, async (userId) =>
		save(userId, section, await readBody(args.request), { rowId: pathId(id, `${SECTION_NOUNS[section]} not found`) }),
	)
}

function remove(args: RequestArgs, section: Section, id: string) {
	return profileApi(args, async (userId) => {
		const row = await deleteRow(userId, section, pathId(id, `${SECTION_NOUNS[section]} not found`))
		return json({ success: true, id: row.id })
	})
}

type Target = { profileId: number } | { rowId: number }

async function save(userId: string, section: Section, body: Record<string, unknown>, target: Target) {
	const status = 'profileId' in target ? 201 : 200
	if (section === 'policies') return savePolicyJson(userId, body, target, status)
	if (section === 'documents' && 'profileId' in target) return linkDocument(userId, body, target.profileId)
	const parsed = SCHEMAS[section]!.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	const values = parsed.data as never
	const row =
		'profileId' in target ? await addRow(userId, section, target.profileId, values) : await updateRow(userId, section, target.rowId, values)
	return json(show(section, row), status)
}

/** A medical document whose file the person uploaded before (spec 001 §7: fileUrl from /api/upload-document). */
async function linkDocument(userId: string, body: Record<string, unknown>, profileId: number) {
	const parsed = DocumentLinkSchema.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	const { fileUrl, ...details } = parsed.data
	return json(toDocumentView(await addDocument(userId, profileId, fileUrl, details)), 201)
}

/** The card photo: cardFrontPhotoUrl (a URL from /api/upload, or null to remove it), or a file sent as multipart. */
const cardField = (body: Record<string, unknown>) => (Object.hasOwn(body, 'cardFrontPhotoUrl') ? 'cardFrontPhotoUrl' : 'cardFrontPhoto')
const cardOf = (body: Record<string, unknown>, form: FormData) =>
	Object.hasOwn(body, 'cardFrontPhotoUrl') ? body.cardFrontPhotoUrl : (form.get('cardFrontPhoto') ?? undefined)

/** Policies go through savePolicy, the page's own path, so a card photo sent as multipart is handled alike. */
async function savePolicyJson(userId: string, body: Record<string, unknown>, target: Target, status: number) {
	const form = new FormData()
	for (const [key, value] of Object.entries(body)) {
		if (value instanceof File) form.set(key, value)
		else if (['string', 'number', 'boolean'].includes(typeof value)) form.set(key, String(value))
	}
	const profileId = 'profileId' in target ? target.profileId : (await getRow(userId, 'policies', target.rowId)).medicalProfileId
	const submission = parseWithZod(form, { schema: InsurancePolicySchema })
	if (submission.status !== 'success') {
		const errors = Object.fromEntries(
			Object.entries(submission.reply().error ?? {}).filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length)),
		)
		return jsonError(400, Object.values(errors)[0]?.[0] ?? 'Invalid policy', { errors })
	}
	const saved = await savePolicy(
		userId,
		profileId,
		'rowId' in target ? target.rowId : null,
		submission.value,
		cardOf(body, form),
		cardField(body),
	)
	return json(toPolicyView(saved), status)
}

/**
 * Multipart POST of one file in the field named after its purpose (spec 001 §7): kept for the person and answered with
 * its {url}; with medicalProfileId as well, `attach` puts it on that profile at once and answers.
 */
export function uploadResource(
	purpose: 'document' | 'picture',
	attach: (userId: string, profileId: number, file: FormDataEntryValue | null) => Promise<Response>,
) {
	return resource<RequestArgs>({
		POST: (args) =>
			profileApi(args, async (userId) => {
				const form = await readForm(args.request, uploadLimit(purpose))
				if (!form.ok) return jsonError(form.status, form.message)
				const file = form.formData.get(purpose)
				if (!form.formData.has('medicalProfileId')) return json(await keepUpload(userId, purpose, file, purpose), 201)
				return attach(userId, requiredId(form.formData.get('medicalProfileId'), 'medicalProfileId'), file)
			}),
	})
}
