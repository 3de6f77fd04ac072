import { DomainError } from '#app/domain/errors.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import type { z } from 'zod'
import { savePolicy } from '#app/domain/profiles/files.server.ts'
import {
	AllergySchema,
	ConditionSchema,
	ContactSchema,
	IdSchema,
	InsurancePolicySchema,
	MedicationSchema,
} from '#app/domain/profiles/schemas.ts'
import { addRow, deleteRow, getRow, listRows, SECTION_NOUNS, updateRow, type Section } from '#app/domain/profiles/sections.server.ts'
import { toDocumentView, toPolicyView } from '#app/domain/profiles/views.ts'
import { jsonError, readBody, requireApiUserId, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'

/** Private data: never kept by a shared cache. */
export function json(value: unknown, status = 200) {
	return Response.json(value, { status, headers: { 'cache-control': 'private, no-store' } })
}

/** Signed in; another person's profile or row is a 404 with the same message as an unknown id. */
export async function profileApi(request: Request, run: (userId: string) => Promise<Response>) {
	const userId = await requireApiUserId(request)
	try {
		return await run(userId)
	} catch (error) {
		if (error instanceof DomainError) return jsonError(error.status, error.message)
		throw error
	}
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
/** Spec 001 §7: which sections take POST (documents arrive through /api/upload-document) and PUT. */
const CAN_POST: Section[] = ['contacts', 'allergies', 'medications', 'conditions', 'policies']
const CAN_PUT: Section[] = ['medications', 'conditions', 'policies']

function show(section: Section, row: unknown) {
	if (section === 'policies') return toPolicyView(row as Parameters<typeof toPolicyView>[0])
	if (section === 'documents') return toDocumentView(row as Parameters<typeof toDocumentView>[0])
	return row
}

/**
 * Spec 001 §7 for one section: GET /api/{section}?profileId= lists a profile's rows, POST adds one (documents arrive
 * through /api/upload-document), PUT /api/{section}/{id} changes one (medications, conditions, policies) and DELETE
 * removes it.
 */
export function sectionResource(section: Section) {
	return resource<{ request: Request; params: { id?: string } }>(({ params }) => {
		if (params.id === undefined)
			return {
				GET: ({ request }) => list(request, section),
				...(CAN_POST.includes(section) && { POST: ({ request }) => add(request, section) }),
			}
		const rowId = params.id
		return {
			...(CAN_PUT.includes(section) && { PUT: ({ request }) => change(request, section, rowId) }),
			DELETE: ({ request }) => remove(request, section, rowId),
		}
	})
}

function list(request: Request, section: Section) {
	return profileApi(request, async (userId) => {
		const profileId = requiredId(new URL(request.url).searchParams.get('profileId'), 'profileId')
		const rows = await listRows(userId, section, profileId)
		return json(rows.map((row) => show(section, row)))
	})
}

function add(request: Request, section: Section) {
	return profileApi(request, async (userId) => {
		const body = await readBody(request)
		return save(userId, section, body, { profileId: requiredId(body.medicalProfileId, 'medicalProfileId') })
	})
}

function change(request: Request, section: Section, id: string) {
	return profileApi(request, async (userId) =>
		save(userId, section, await readBody(request), { rowId: pathId(id, `${SECTION_NOUNS[section]} not found`) }),
	)
}

function remove(request: Request, section: Section, id: string) {
	return profileApi(request, async (userId) => {
		const row = await deleteRow(userId, section, pathId(id, `${SECTION_NOUNS[section]} not found`))
		return json({ success: true, id: row.id })
	})
}

type Target = { profileId: number } | { rowId: number }

async function save(userId: string, section: Section, body: Record<string, unknown>, target: Target) {
	const status = 'profileId' in target ? 201 : 200
	if (section === 'policies') return savePolicyJson(userId, body, target, status)
	const parsed = SCHEMAS[section]!.safeParse(body)
	if (!parsed.success) return validationError(parsed.error.issues)
	const values = parsed.data as never
	const row =
		'profileId' in target ? await addRow(userId, section, target.profileId, values) : await updateRow(userId, section, target.rowId, values)
	return json(show(section, row), status)
}

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
	try {
		return json(
			toPolicyView(
				await savePolicy(userId, profileId, 'rowId' in target ? target.rowId : null, submission.value, form.get('cardFrontPhoto')),
			),
			status,
		)
	} catch (error) {
		if (error instanceof DomainError && error.field)
			return jsonError(error.status, error.message, { errors: { [error.field]: [error.message] } })
		throw error
	}
}
