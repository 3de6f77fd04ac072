// Broken and hostile health summaries for "Fill from a health summary" (the JSON API's import and confirm, the page's
// upload and confirm): the app's own summary with one part spoiled, and files built to hurt a parser (not JSON, nested
// thousands deep, prototype keys, huge lists and texts, more than 1 MB, no IPS content). Each must be refused (a 4xx
// with a message) or read, never a 5xx.
import fc from 'fast-check'
import { buildIps } from '#app/domain/sharing/ips.ts'
import { RawJson, serialize, type Body, type Value } from './bodies.ts'
import type { Auth, FuzzRequest } from './targets.ts'

/** A valid International Patient Summary with something in every section: what the spoiled ones start from. */
export const SUMMARY = JSON.parse(
	JSON.stringify(
		buildIps(
			{
				fullName: 'Fuzz Summary',
				firstName: 'Fuzz',
				middleName: null,
				lastName: 'Summary',
				dateOfBirth: '1970-01-01',
				gender: 'Other',
				phoneNumber: null,
				dnrStatus: 'None',
				dnrDocumentName: null,
				dnrDocumentDate: null,
				dnrOriginalLocation: null,
				emergencyContacts: [],
				allergies: [{ allergen: 'Fuzzamide', severity: 'Moderate', reaction: 'Hives' }],
				medications: [{ name: 'Fuzzolol', dosage: '5 mg', frequency: 'daily', startDate: '2020-01-01' }],
				medicalConditions: [{ condition: 'Fuzzitis', status: 'Chronic', diagnosedDate: '2019-01-01', notes: 'Note' }],
			},
			{
				now: new Date('2026-01-01T00:00:00Z'),
				uuid: (() => {
					let n = 0
					return () => `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`
				})(),
			},
		),
	),
) as Value

type Path = Array<string | number>

/** Every place in a value, as a path of keys and indexes. */
function pathsOf(value: Value, prefix: Path = []): Path[] {
	if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => pathsOf(v, [...prefix, i]))]
	if (value && typeof value === 'object' && !(value instanceof RawJson))
		return [prefix, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k]))]
	return [prefix]
}
const PATHS = pathsOf(SUMMARY).filter((p) => p.length > 0)

/** The value with what is at `path` replaced. */
function replaced(value: Value, path: Path, by: Value): Value {
	if (!path.length) return by
	const [head, ...rest] = path
	if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, by) : v))
	const object = value as Record<string, Value>
	return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, k === head ? replaced(v, rest, by) : v]))
}

const nested = (depth: number): Value => (depth === 0 ? 'deep' : [nested(depth - 1)])
/** An object with an own `__proto__` key (a computed key defines it; JSON.stringify writes it). */
const protoKeyed = (key: string): Value => ({ [key]: { polluted: true, isAdmin: true } }) as Value

const BAD_VALUES: Value[] = [
	null,
	0,
	-1,
	true,
	'',
	'x',
	'Bundle',
	[],
	{},
	[null],
	[[]],
	new RawJson('1e309'),
	new RawJson('-0'),
	'\uD800',
	'a\u0000b',
	'<div>',
	'x'.repeat(20_000),
	Array.from({ length: 1500 }, () => ({})),
	Array.from({ length: 60 }, () => ({ code: 'x' })),
	nested(40),
	protoKeyed('__proto__'),
	protoKeyed('constructor'),
	{ resourceType: 'Bundle', entry: [{ resource: SUMMARY }] },
]

/** The app's own summary with one part (anywhere in it) replaced by a bad value, now and then two. */
export function spoiledBundleArb(): fc.Arbitrary<Value> {
	const spoil = fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...BAD_VALUES))
	return fc.array(spoil, { minLength: 1, maxLength: 2 }).map((spoils) => spoils.reduce((v, [path, bad]) => replaced(v, path, bad), SUMMARY))
}

/** Texts no JSON.stringify of a value writes: each as the whole file, or as `bundle` inside a JSON body. */
export const HOSTILE_TEXTS: Array<[string, string]> = [
	['not JSON', '{"resourceType": "Bundle", '],
	['a PDF', '%PDF-1.4\n%âãÏÓ\n1 0 obj'],
	['empty', ''],
	['null', 'null'],
	['a number', '1e309'],
	['NaN', 'NaN'],
	['a byte-order mark', '\uFEFF{"resourceType":"Bundle"}'],
	['nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
	['objects nested 20,000 deep', `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`],
	['an unclosed nest', '['.repeat(200_000)],
	['__proto__ in a resource', '{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Condition","__proto__":{"isAdmin":true}}}]}'],
	['constructor.prototype', '{"resourceType":"Bundle","constructor":{"prototype":{"isAdmin":true}}}'],
	['duplicate keys', '{"resourceType":"Bundle","resourceType":"Patient","entry":[]}'],
	['a lone surrogate escaped', '{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Condition","code":{"text":"\\ud800"}}}]}'],
	['100,000 entries', `{"resourceType":"Bundle","entry":[${Array(100_000).fill('{}').join(',')}]}`],
	[
		'a 900 KB text',
		`{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"Condition","code":{"text":"${'x'.repeat(900_000)}"}}}]}`,
	],
	['over 1 MB', `{"resourceType":"Bundle","pad":"${'x'.repeat(1_100_000)}"}`],
	['no IPS content', '{"resourceType":"Bundle","type":"collection","entry":[{"resource":{"resourceType":"Patient"}}]}'],
	['lower-case bundle', '{"resourceType":"bundle","entry":[]}'],
	['entry null', '{"resourceType":"Bundle","entry":null}'],
	['a resource that is text', '{"resourceType":"Bundle","entry":[{"resource":"AllergyIntolerance"}]}'],
	[
		'codings not a list',
		'{"resourceType":"Bundle","entry":[{"resource":{"resourceType":"AllergyIntolerance","code":{"coding":{"code":"x"}}}}]}',
	],
]

/** Bytes that are not UTF-8 at all. */
const NOT_UTF8 = Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x22, 0x00, 0xc0, 0x80, 0xed, 0xa0, 0x80])

const json = (value: Value): Body => ({ kind: 'json', value, contentType: 'application/json' })
const raw = (text: string | Buffer, contentType = 'application/json'): Body => ({
	kind: 'raw',
	bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
	contentType,
})
const file = (text: string | Buffer, fields: Array<[string, Value]> = [['intent', 'import-read']]): Body => ({
	kind: 'multipart',
	fields,
	files: [
		{ field: 'bundle', name: 'summary.json', type: 'application/json', bytes: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8') },
	],
	flaw: 'none',
})
const confirmForm = (text: string): Body => ({
	kind: 'multipart',
	fields: [
		['intent', 'import-confirm'],
		['bundle', text],
		['accept', 'allergy-0'],
	],
	files: [],
	flaw: 'none',
})

/**
 * Every hostile text and `spoiled` spoiled summaries, to the API's import and confirm and to the page's forms, on a
 * profile of the attacker's (which gets past the ownership check) and, less often, of the victim's.
 */
export function bundleRequests(profiles: { mine: number; theirs: number }, spoiled: Value[]): FuzzRequest[] {
	const out: FuzzRequest[] = []
	const add = (path: string, body: Body, auth: Auth = 'attacker') =>
		out.push({ target: 'health-summaries', method: 'POST', path, auth, origin: 'same', body })
	for (const id of [profiles.mine, profiles.theirs]) {
		const api = `/api/medical-profiles/${id}/import`
		const page = `/medical-info/import?profile=${id}`
		for (const [, text] of HOSTILE_TEXTS) {
			add(api, raw(text))
			add(`${api}/confirm`, raw(`{"accept":["allergy-0"],"bundle":${text || '""'}}`))
			add(api, json({ bundle: text }))
			add(page, file(text))
			add(page, confirmForm(text))
			if (id === profiles.theirs) break
		}
		add(api, raw(NOT_UTF8))
		add(page, file(NOT_UTF8))
		add(api, raw('{"bundle":{}}', 'text/plain'))
		add(
			api,
			json({
				shlink:
					'shlink:/' + Buffer.from(JSON.stringify({ url: 'http://169.254.169.254/latest', key: 'A'.repeat(43) })).toString('base64url'),
			}),
		)
		add(api, json({ shlink: `shlink:/${'A'.repeat(5000)}` }))
	}
	for (const [i, value] of spoiled.entries()) {
		const mine = profiles.mine
		add(`/api/medical-profiles/${mine}/import`, json({ bundle: value }))
		add(`/api/medical-profiles/${mine}/import/confirm`, json({ bundle: value, accept: ['allergy-0', 'dnr-None'] }))
		if (i % 4 === 0) add(`/medical-info/import?profile=${mine}`, file(serialize(value)))
	}
	// Signed out, nothing is read.
	add(`/api/medical-profiles/${profiles.mine}/import`, json({ bundle: SUMMARY }), 'anonymous')
	return out
}
