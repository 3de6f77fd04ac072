// Bad input, as fast-check arbitraries: values of the wrong type, size or encoding, and bodies that are broken JSON,
// broken forms and broken multipart. Every arbitrary here is deterministic for a given seed.
import fc from 'fast-check'

/** A token written into JSON as is: numbers JSON.stringify cannot produce (1e309, -0, 2^53 + 1). */
export class RawJson {
	constructor(readonly text: string) {}
}

export type Value = string | number | boolean | null | RawJson | Value[] | { [key: string]: Value }

export type Body =
	| { kind: 'none' }
	| { kind: 'json'; value: Value; contentType: string }
	| { kind: 'raw'; bytes: Buffer; contentType: string | null }
	| { kind: 'form'; fields: Array<[string, Value]>; style: FormStyle; contentType: string | null }
	| { kind: 'multipart'; fields: Array<[string, Value]>; files: FilePart[]; flaw: MultipartFlaw; contentType?: string }

export type FormStyle = 'encoded' | 'raw' | 'percent-junk' | 'latin1'
export type MultipartFlaw =
	'none' | 'wrong-boundary' | 'no-boundary' | 'truncated' | 'lf-only' | 'no-disposition' | 'long-boundary' | 'no-final'
export type FilePart = { field: string; name: string; type: string; bytes: Buffer }

const KB = 1024
const MB = 1024 * KB

const LONE_SURROGATES = ['\uD800', '\uDFFF', 'a\uDC00b', '\uD83D', 'x\uDE00\uD83Dy']
const SPECIAL_STRINGS = [
	'',
	' ',
	'\t\n',
	'\0',
	'a\0b',
	'\0\0\0',
	'null',
	'undefined',
	'true',
	'NaN',
	'-NaN',
	'Infinity',
	'-Infinity',
	'1e309',
	'-1e309',
	'1e3',
	'0x10',
	'0b11',
	'0o17',
	'010',
	'-0',
	'+1',
	' 1 ',
	'1.5',
	'1,5',
	'9007199254740992',
	'9007199254740993',
	'2147483647',
	'2147483648',
	'-2147483649',
	'99999999999999999999999999',
	'0',
	'-1',
	'[object Object]',
	'__proto__',
	'constructor',
	'prototype',
	'<script>alert(1)</script>',
	"' OR 1=1 --",
	'"; DROP TABLE users; --',
	'../../../../etc/passwd',
	'..\\..\\windows\\win.ini',
	'%00',
	'%ZZ',
	'%',
	'%%',
	'%C0%80',
	'\u202Eevil\u202C',
	'\u200F\u05E9\u05DC\u05D5\u05DD\u200E',
	'\u0645\u0631\u062D\u0628\u0627',
	'a\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030A\u030B\u030C',
	'\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}',
	'\u{1F3F3}\uFE0F\u200D\u{1F308}',
	'\uFEFF',
	'\uFFFF',
	'\uFFFD',
	'\u0085',
	'\u2028\u2029',
	'\r\nSet-Cookie: evil=1',
	'2024-02-30',
	'0000-00-00',
	'9999-12-31',
	'2999-01-01',
	'1899-12-31',
	'2024-13-01',
	'-001000-01-01',
	'+275760-09-13',
	'2020-01-01T00:00:00Z',
	'#DC2626',
	'#dc2626',
	' #2563eb ',
	'#FFF',
	'red',
	'a@b',
	'a@b.c',
	'person1@e2e.example',
	'PERSON1@E2E.EXAMPLE',
	'x@' + 'a'.repeat(300) + '.com',
	'http://',
	'https://example.com/' + 'a'.repeat(600),
	'javascript:alert(1)',
	'//evil.example/',
	'/\\evil.example',
	'https://evil.example',
	'AAAAAAAA',
	'23456789',
	'abcdefgh',
	'ABCD2345',
	'on',
	'off',
	'self',
	'child',
	'Mild',
	'Severe',
	'Active',
	'DNR',
	'POLST',
	'HMO',
	'standard',
	'overnight',
	'US',
	'ZZ',
	'circular',
	'square',
	'png',
	'svg',
	'insurance-card',
	'emergency',
	'full',
	'basic',
	'never',
	'hipaa',
	'terms',
	'emergency_disclaimer',
	...LONE_SURROGATES,
]

const RAW_NUMBERS = [
	'1e309',
	'-1e309',
	'-0',
	'9007199254740993',
	'1e-400',
	'123456789012345678901234567890',
	'2147483648',
	'-2147483649',
	'0.1e1',
	'1E3',
	'4e2',
]

/** A long string, built only when sampled. Sizes up to about 200 KB. */
export const bigString = fc
	.tuple(
		fc.constantFrom('A', 'é', '\u{1F600}', '\0', 'a\u0301', '\uD800', '%', '&=', ' ', '9'),
		fc.constantFrom(1 * KB, 20 * KB, 64 * KB, 100 * KB, 200 * KB),
	)
	.map(([unit, bytes]) => unit.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(unit)))))

const unicodeString = fc.oneof(
	fc.string({ unit: 'grapheme', maxLength: 40 }),
	fc.string({ unit: 'binary', maxLength: 40 }),
	fc.string({ unit: 'grapheme-composite', maxLength: 20 }),
	fc.string({ maxLength: 40 }),
	fc.constantFrom(...LONE_SURROGATES),
	fc
		.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...LONE_SURROGATES, '\0', '\u0301'), fc.string({ maxLength: 10 }))
		.map((p) => p.join('')),
)

export type Holding = { profileIds: number[]; codeIds: number[]; rowIds: number[]; documentIds: number[]; policyIds: number[] }

export type Pools = {
	/** Ids worth trying: the attacker's own, the victim's, and odd ones. */
	ids: Array<number | string>
	pins: string[]
	/** Stickers nobody has claimed yet. */
	freePins: string[]
	emails: string[]
	/** The shop's products, then the request page's. */
	productIds: number[]
	requestProductIds: number[]
	mine: Holding
	theirs: Holding
}

export function scalarArb(pools: Pools): fc.Arbitrary<Value> {
	return fc.oneof(
		{ arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 6 },
		{ arbitrary: unicodeString, weight: 4 },
		{ arbitrary: fc.constantFrom(...pools.ids), weight: 4 },
		{ arbitrary: fc.constantFrom(...pools.ids).map(String), weight: 2 },
		{ arbitrary: fc.constantFrom(...pools.pins), weight: 2 },
		{ arbitrary: fc.constantFrom(...pools.emails), weight: 1 },
		{ arbitrary: fc.constantFrom(...pools.productIds), weight: 1 },
		{ arbitrary: fc.integer(), weight: 2 },
		{
			arbitrary: fc.constantFrom(
				0,
				-1,
				1,
				2147483647,
				2147483648,
				-2147483649,
				2 ** 53,
				2 ** 53 + 2,
				Number.MAX_SAFE_INTEGER,
				Number.MIN_SAFE_INTEGER,
				1e21,
				0.5,
				-0.5,
				1e-7,
			),
			weight: 2,
		},
		{ arbitrary: fc.double(), weight: 1 },
		{ arbitrary: fc.constantFrom(...RAW_NUMBERS).map((n) => new RawJson(n)), weight: 2 },
		{ arbitrary: fc.boolean(), weight: 2 },
		{ arbitrary: fc.constant(null), weight: 2 },
		{ arbitrary: bigString, weight: 1 },
	)
}

export function valueArb(pools: Pools): fc.Arbitrary<Value> {
	const scalar = scalarArb(pools)
	const { value } = fc.letrec<{ value: Value }>((tie) => ({
		value: fc.oneof(
			{ depthSize: 'small', withCrossShrink: true },
			{ arbitrary: scalar, weight: 10 },
			{ arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
			{
				arbitrary: fc.dictionary(
					fc.oneof(fc.constantFrom('0', 'a', '__proto__', 'constructor', '', 'customText', 'id', 'name'), fc.string({ maxLength: 8 })),
					tie('value'),
					{ maxKeys: 4 },
				),
				weight: 1,
			},
		),
	}))
	return value
}

/** Some of the target's own fields (with bad values), plus sometimes fields it does not expect. */
export function fieldsArb(
	pools: Pools,
	fields: readonly string[],
	fixed: Record<string, fc.Arbitrary<Value>> = {},
): fc.Arbitrary<Array<[string, Value]>> {
	const value = valueArb(pools)
	const known = fields.length
		? fc.subarray([...fields]).chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), fixed[name] ?? value))))
		: fc.constant([])
	const extra = fc.array(
		fc.tuple(
			fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'intent', 'id', 'userId', 'isAdmin', 'role', '')),
			value,
		),
		{ maxLength: 3 },
	)
	return fc
		.tuple(known, fc.oneof({ arbitrary: fc.constant([] as Array<[string, Value]>), weight: 3 }, { arbitrary: extra, weight: 1 }))
		.map(([a, b]) => [...(a as Array<[string, Value]>), ...b])
}

const JSON_TYPES = [
	'application/json',
	'application/json; charset=utf-8',
	'application/vnd.api+json',
	'APPLICATION/JSON',
	'application/json; charset=utf-16',
	'application/json;',
	'application/jsonx',
]
const OTHER_TYPES = [
	null,
	'text/plain',
	'text/html',
	'application/xml',
	'application/octet-stream',
	'image/png',
	'multipart/mixed',
	'multipart/form-data',
	'application/x-www-form-urlencoded; charset=utf-16',
	'application/x-www-form-urlencoded; charset=iso-8859-1',
	'*/*',
	';',
	'a'.repeat(2000),
]

const MALFORMED_JSON = [
	'{',
	'}',
	'{"a":',
	'{"a":1,}',
	"{'a':1}",
	'{"a":1}{"b":2}',
	'[1,2,3]',
	'[]',
	'null',
	'true',
	'"string"',
	'123',
	'{"a":"\\uD800"}',
	'{"a":"\\u0000"}',
	'{"a":"\\x00"}',
	'{"__proto__":{"isAdmin":true}}',
	'{"constructor":{"prototype":{"polluted":1}}}',
	'{"a":NaN}',
	'{"a":Infinity}',
	'{"a":1e309}',
	'\uFEFF{"a":1}',
	'{"a":1}\0',
	'\0',
	' ',
	'['.repeat(5000),
	'{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
	'['.repeat(100_000) + ']'.repeat(100_000),
]

function rawBytesArb(pools: Pools): fc.Arbitrary<Buffer> {
	return fc.oneof(
		fc.constantFrom(...MALFORMED_JSON).map((s) => Buffer.from(s)),
		fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
		fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)),
		valueArb(pools).map((v) => Buffer.from(serialize(v).slice(0, -1))),
		fc.constantFrom(
			Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
			Buffer.from([0xc0, 0x80]),
			Buffer.from([0xed, 0xa0, 0x80]),
			Buffer.from('{"a":"\u00e9"}', 'latin1'),
		),
	)
}

export type Valid = Record<string, fc.Arbitrary<Value>>

/**
 * A body that would be accepted but for one or two fields spoiled (a bad value, or left out), so that requests get
 * past validation into the code and the database behind it. The ids in it are the attacker's or the victim's.
 */
function nearlyValidArb(pools: Pools, valid: Valid, prefer: 'json' | 'form'): fc.Arbitrary<Body> {
	const names = Object.keys(valid)
	return fc
		.record({
			values: fc.record(valid),
			spoiled: fc.subarray(names, { maxLength: Math.min(2, names.length) }),
			bad: fc.array(valueArb(pools), { minLength: 2, maxLength: 2 }),
			drop: fc.boolean(),
			encoding:
				prefer === 'json'
					? fc.constantFrom('json', 'json', 'json', 'form', 'multipart')
					: fc.constantFrom('form', 'form', 'form', 'multipart', 'json'),
		})
		.map(({ values, spoiled, bad, drop, encoding }): Body => {
			const fields: Array<[string, Value]> = []
			for (const name of names) {
				const at = spoiled.indexOf(name)
				if (at === -1) fields.push([name, values[name]!])
				else if (!drop) fields.push([name, bad[at]!])
			}
			if (encoding === 'json') return { kind: 'json', value: Object.fromEntries(fields), contentType: 'application/json' }
			if (encoding === 'form') return { kind: 'form', fields, style: 'encoded', contentType: 'application/x-www-form-urlencoded' }
			return { kind: 'multipart', fields, files: [], flaw: 'none' }
		})
}

/** A body for a request to a target with these fields. */
export function bodyArb(
	pools: Pools,
	fields: readonly string[],
	fixed: Record<string, fc.Arbitrary<Value>> = {},
	prefer: 'json' | 'form' = 'json',
	valid: Valid[] = [],
): fc.Arbitrary<Body> {
	const fieldList = fieldsArb(pools, fields, fixed)
	const json = fc
		.tuple(fieldList, fc.constantFrom(...JSON_TYPES), fc.integer({ min: 0, max: 9 }))
		.map(([list, contentType, shape]): Body => {
			const obj = Object.fromEntries(list)
			// Mostly an object, sometimes the same values in an array or a bare value.
			const value: Value = shape === 0 ? list.map(([, v]) => v) : shape === 1 ? (list[0]?.[1] ?? null) : obj
			return { kind: 'json', value, contentType }
		})
	const form = fc
		.tuple(
			fieldList,
			fc.constantFrom<FormStyle>('encoded', 'encoded', 'raw', 'percent-junk', 'latin1'),
			fc.constantFrom(
				'application/x-www-form-urlencoded',
				'application/x-www-form-urlencoded',
				'application/x-www-form-urlencoded; charset=UTF-8',
				null,
				'text/plain',
			),
		)
		.map(([list, style, contentType]): Body => ({ kind: 'form', fields: list, style, contentType }))
	const multipart = fc
		.tuple(
			fieldList,
			fc.array(fileArb(), { maxLength: 2 }),
			fc.constantFrom<MultipartFlaw>(
				'none',
				'none',
				'none',
				'wrong-boundary',
				'no-boundary',
				'truncated',
				'lf-only',
				'no-disposition',
				'long-boundary',
				'no-final',
			),
		)
		.map(([list, files, flaw]): Body => ({ kind: 'multipart', fields: list, files, flaw }))
	const raw = fc
		.tuple(rawBytesArb(pools), fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES))
		.map(([bytes, contentType]): Body => ({ kind: 'raw', bytes, contentType }))
	return fc.oneof(
		{ arbitrary: valid.length ? fc.oneof(...valid.map((v) => nearlyValidArb(pools, v, prefer))) : json, weight: 8 },
		{ arbitrary: json, weight: prefer === 'json' ? 6 : 2 },
		{ arbitrary: form, weight: prefer === 'form' ? 6 : 2 },
		{ arbitrary: multipart, weight: prefer === 'form' ? 3 : 1 },
		{ arbitrary: raw, weight: 2 },
		{ arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
	)
}

const MAGIC: Record<string, Buffer> = {
	png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
	jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
	gif: Buffer.from('GIF89a'),
	webp: Buffer.from('RIFF\0\0\0\0WEBP'),
	pdf: Buffer.from('%PDF-1.4\n'),
	doc: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
	docx: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
	none: Buffer.alloc(0),
}

function fileArb(): fc.Arbitrary<FilePart> {
	return fc.record({
		field: fc.constantFrom('document', 'picture', 'file', 'cardFrontPhoto', 'insurance-card', 'bundle', 'x', ''),
		name: fc.oneof(
			fc.constantFrom(
				'a.pdf',
				'a.png',
				'a.PDF',
				'a.jpg',
				'a.docx',
				'a.doc',
				'a.webp',
				'a.gif',
				'a.exe',
				'a',
				'.png',
				'a.pdf.exe',
				'../../x.pdf',
				'a\0.pdf',
				'',
				'é\u202E.pdf',
				'\u{1F600}.png',
				'"quote".pdf',
				'a;b.pdf',
				'x'.repeat(1000) + '.pdf',
				'con.pdf',
			),
			fc.string({ maxLength: 20 }).map((s) => `${s}.pdf`),
		),
		type: fc.constantFrom('application/pdf', 'image/png', 'image/jpeg', 'application/octet-stream', 'text/html', '', 'image/svg+xml'),
		bytes: fc
			.tuple(fc.constantFrom(...Object.keys(MAGIC)), fc.uint8Array({ maxLength: 256 }), fc.integer({ min: 0, max: 59 }))
			.map(([magic, tail, big]) => {
				// Now and then a file just past the image limit (5 MB) or a large one below it.
				const pad = big === 0 ? Buffer.alloc(5 * MB + 1, 1) : big < 3 ? Buffer.alloc(600 * KB, 0) : Buffer.alloc(0)
				return Buffer.concat([MAGIC[magic]!, Buffer.from(tail), pad])
			}),
	})
}

/** JSON text, with RawJson tokens written verbatim. */
export function serialize(value: Value): string {
	if (value instanceof RawJson) return value.text
	if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`
	if (value && typeof value === 'object')
		return `{${Object.entries(value)
			.map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`)
			.join(',')}}`
	if (typeof value === 'number' && !Number.isFinite(value)) return 'null'
	return JSON.stringify(value) ?? 'null'
}

/** How a value reads in a form field. */
export function formText(value: Value): string {
	if (value instanceof RawJson) return value.text
	if (typeof value === 'string') return value
	if (value === null) return ''
	if (typeof value === 'object') return serialize(value)
	return String(value)
}

function encodeForm(fields: Array<[string, Value]>, style: FormStyle): Buffer {
	if (style === 'latin1') return Buffer.from(fields.map(([k, v]) => `${k}=${formText(v)}`).join('&'), 'latin1')
	if (style === 'raw') return Buffer.from(fields.map(([k, v]) => `${k}=${formText(v)}`).join('&'))
	const parts = fields.map(([k, v]) => `${encodeURIComponent(toWellFormed(k))}=${encodeURIComponent(toWellFormed(formText(v)))}`)
	if (style === 'percent-junk')
		parts.push('%ZZ=%ZZ', 'a=%00', 'b=%', 'c=%C0%80', 'd=%FF%FE', '=empty', 'flag', '&&', 'e=1=2', 'intent%00=x')
	return Buffer.from(parts.join('&'))
}

/** String#toWellFormed (Node 20 has it): encodeURIComponent throws on a lone surrogate. */
function toWellFormed(s: string) {
	return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

function quoteName(name: string) {
	return name.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
}

function encodeMultipart(
	fields: Array<[string, Value]>,
	files: FilePart[],
	flaw: MultipartFlaw,
	boundary: string,
): { bytes: Buffer; contentType: string } {
	const eol = flaw === 'lf-only' ? '\n' : '\r\n'
	const bodyBoundary = flaw === 'wrong-boundary' ? `${boundary}X` : boundary
	const chunks: Buffer[] = []
	for (const [name, value] of fields) {
		chunks.push(Buffer.from(`--${bodyBoundary}${eol}`))
		if (flaw !== 'no-disposition') chunks.push(Buffer.from(`Content-Disposition: form-data; name="${quoteName(name)}"${eol}`))
		chunks.push(Buffer.from(`${eol}${formText(value)}${eol}`))
	}
	for (const file of files) {
		chunks.push(
			Buffer.from(
				`--${bodyBoundary}${eol}Content-Disposition: form-data; name="${quoteName(file.field)}"; filename="${quoteName(file.name)}"${eol}Content-Type: ${file.type}${eol}${eol}`,
			),
		)
		chunks.push(file.bytes, Buffer.from(eol))
	}
	if (flaw !== 'no-final') chunks.push(Buffer.from(`--${bodyBoundary}--${eol}`))
	let bytes = Buffer.concat(chunks)
	if (flaw === 'truncated') bytes = bytes.subarray(0, Math.floor(bytes.byteLength / 2))
	const contentType = flaw === 'no-boundary' ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`
	return { bytes, contentType }
}

/** The bytes and content type a body is sent with. */
export function encodeBody(body: Body, seed: number): { bytes?: Buffer; contentType: string | null } {
	switch (body.kind) {
		case 'none':
			return { contentType: null }
		case 'json':
			return { bytes: Buffer.from(serialize(body.value)), contentType: body.contentType }
		case 'raw':
			return { bytes: body.bytes, contentType: body.contentType }
		case 'form':
			return { bytes: encodeForm(body.fields, body.style), contentType: body.contentType }
		case 'multipart': {
			const boundary = body.flaw === 'long-boundary' ? 'b'.repeat(200) : `----fuzz${seed.toString(36)}`
			const { bytes, contentType } = encodeMultipart(body.fields, body.files, body.flaw, boundary)
			return { bytes, contentType: body.contentType ?? contentType }
		}
	}
}

/** A short description of a body for a failure report. */
export function describeBody(body: Body): string {
	const clip = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}… (${s.length} chars)` : s)
	const fieldsOf = (fields: Array<[string, Value]>) => clip(fields.map(([k, v]) => `${k}=${clip(formText(v))}`).join('&'))
	switch (body.kind) {
		case 'none':
			return 'no body'
		case 'json':
			return `json (${body.contentType}) ${clip(serialize(body.value))}`
		case 'raw':
			return `raw (${body.contentType ?? 'no content-type'}) ${body.bytes.byteLength} bytes: ${JSON.stringify(clip(body.bytes.toString('latin1')))}`
		case 'form':
			return `form/${body.style} (${body.contentType ?? 'no content-type'}) ${fieldsOf(body.fields)}`
		case 'multipart':
			return `multipart/${body.flaw} ${fieldsOf(body.fields)}${body.files.map((f) => ` file ${f.field}=${JSON.stringify(f.name)} ${f.type} ${f.bytes.byteLength} bytes`).join('')}`
	}
}
