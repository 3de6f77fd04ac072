// What the fuzz suite sends requests to: every JSON endpoint and every page with an action in app/routes.ts, with the
// fields and intents each reads, so that generated requests get past the first check often enough to reach the rest.
import fc from 'fast-check'
import { bodyArb, RawJson, serialize, type Body, type Pools, type Valid, type Value } from './bodies.ts'
import { spoiledBundleArb, SUMMARY } from './bundles.ts'

export type Auth = 'attacker' | 'anonymous'
/** Odd headers: a forged or broken session cookie (signed out), another Host, a made-up client address. */
export type Quirk =
	'none' | 'cookie-garbage' | 'cookie-tampered' | 'cookie-huge' | 'cookie-twice' | 'host-other' | 'forwarded-for' | 'accept-language'
export type FuzzRequest = {
	target: string
	method: string
	path: string
	auth: Auth
	body: Body
	origin: 'same' | 'none' | 'cross' | 'null'
	accept?: string
	quirk?: Quirk
	/** Headers sent as given, over the others. */
	headers?: Record<string, string>
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const
// Methods Node's HTTP parser accepts besides the five; a method it cannot parse never reaches the app. TRACE is sent
// too, but only among EDGES, at the end of a run: it has stopped the whole server.
const ODD_METHODS = ['HEAD', 'OPTIONS', 'PROPFIND', 'PURGE', 'M-SEARCH'] as const

// Field names the app's schemas read (app/domain/*/schemas.ts, the page actions), by area.
const PERSONAL = [
	'firstName',
	'middleName',
	'lastName',
	'dateOfBirth',
	'bloodType',
	'gender',
	'phoneNumber',
	'height',
	'weight',
	'hairColor',
	'eyeColor',
	'race',
	'distinguishingMarks',
	'streetAddress',
	'city',
	'state',
	'zipCode',
	'insurance',
]
const FAMILY = ['fullName', 'relationshipToUser', 'gender', 'dateOfBirth', 'pin']
const CONTACT = ['name', 'relationship', 'phoneNumber', 'email']
const ALLERGY = ['allergen', 'severity', 'reaction']
const MEDICATION = ['name', 'dosage', 'frequency', 'prescribingDoctor', 'startDate']
const CONDITION = ['condition', 'status', 'diagnosedDate', 'notes']
const POLICY = [
	'provider',
	'policyNumber',
	'groupNumber',
	'subscriberId',
	'subscriberName',
	'relationship',
	'planType',
	'effectiveDate',
	'expirationDate',
	'copay',
	'deductible',
	'providerPhone',
	'notes',
]
const DNR = ['dnrStatus', 'dnrDocumentDate', 'dnrOriginalLocation']
const QR_LOOK = ['color', 'textColor', 'circular', 'customText', 'transparentBackground', 'width', 'margin']
const CART_ITEM = [
	'productId',
	'quantity',
	'color',
	'addSticker',
	'transparentBackground',
	'qrShape',
	'customText',
	'stickerSize',
	'qrCodeUrl',
]
const DRAFT = [
	'name',
	'address1',
	'address2',
	'city',
	'state',
	'postalCode',
	'country',
	'shippingMethod',
	'selectedQrCodeId',
	'addressQuery',
	'discountInput',
	'checkoutKey',
	'returnTo',
	'discountCode',
]
const QR_REQUEST = ['fullName', 'email', 'quantity', 'notes', 'website', 'streetAddress', 'city', 'state', 'postalCode', 'country']

const MEDICAL_INTENTS = [
	'save-profile',
	'add-family',
	'delete-profile',
	'set-scanning',
	'update-qr-codes',
	'upload-picture',
	'remove-picture',
	'add-contact',
	'delete-contact',
	'add-allergy',
	'delete-allergy',
	'add-medication',
	'update-medication',
	'delete-medication',
	'add-condition',
	'update-condition',
	'delete-condition',
	'save-policy',
	'delete-policy',
	'save-dnr',
	'clear-dnr',
	'upload-document',
	'delete-document',
	'save-notes',
	'clear-notes',
	'invite-caregiver',
	'revoke-caregiver',
	'leave-profile',
]
const QR_INTENTS = ['generate', 'customize', 'toggle', 'delete', 'assign-profile', 'shl-create', 'shl-revoke']
const CART_INTENTS = [
	'add',
	'increase',
	'decrease',
	'remove',
	'apply-discount',
	'remove-discount',
	'update-shipping',
	'search-address',
	'use-suggestion',
	'checkout',
]

type Target = {
	name: string
	/** Paths to try; `{id}` stands for an id from the pools, `{pin}` for a PIN. */
	paths: string[]
	/** The methods the route answers; the others are sent too, less often. */
	methods: readonly string[]
	fields: string[]
	/** Values for some fields (an intent, say) drawn from their own lists rather than from the bad values. */
	fixed?: (pools: Pools) => Record<string, fc.Arbitrary<Value>>
	prefer: 'json' | 'form'
	/** Page routes are also posted to as single-fetch `.data` requests, which run the action without rendering. */
	page?: boolean
}

const intent = (values: string[], also: string[] = []) =>
	fc.oneof(
		{ arbitrary: fc.constantFrom<Value>(...values), weight: 8 },
		{ arbitrary: fc.constantFrom<Value>('', 'unknown', 'DELETE-PROFILE', ' save-profile', 'save-profile\0', ...also), weight: 1 },
	)
const ids = (pools: Pools) => fc.constantFrom<Value>(...pools.ids)

const api = (name: string, methods: string, paths: string[], fields: string[], fixed?: Target['fixed']): Target => ({
	name,
	paths,
	methods: methods.split(' '),
	fields,
	fixed,
	prefer: 'json',
})
const page = (name: string, paths: string[], fields: string[], fixed?: Target['fixed']): Target => ({
	name,
	paths,
	methods: ['POST'],
	fields,
	fixed,
	prefer: 'form',
	page: true,
})

const profileIds = (pools: Pools) => ({ medicalProfileId: ids(pools), profileId: ids(pools), policyId: ids(pools), id: ids(pools) })

export const TARGETS: Target[] = [
	// JSON endpoints (app/routes/api/*).
	api('api/login', 'GET', ['/api/login', '/api/login?redirectTo=%2F%2Fevil.example', '/api/login?redirectTo=%00'], []),
	api('api/signup', 'POST', ['/api/signup'], ['username', 'email', 'password', 'consent']),
	api('api/auth/user', 'GET', ['/api/auth/user'], []),
	api('api/auth/logout', 'POST', ['/api/auth/logout'], []),
	api('api/consent', 'POST', ['/api/consent'], ['consentType', 'agreed']),
	api('api/consent/texts', 'GET', ['/api/consent/texts'], []),
	api('api/consent/status', 'GET', ['/api/consent/status'], []),
	api('api/pin/validate', 'POST', ['/api/pin/validate'], ['pin'], (p) => ({ pin: fc.constantFrom<Value>(...p.pins) })),
	api('api/pin/claim', 'POST', ['/api/pin/claim'], ['pin', 'medicalProfileId'], (p) => ({
		pin: fc.constantFrom<Value>(...p.pins),
		medicalProfileId: ids(p),
	})),
	api('api/qr-request', 'POST', ['/api/qr-request'], [...QR_REQUEST, 'shippingAddress']),
	api(
		'api/qr-codes/:id/image',
		'GET',
		[
			'/api/qr-codes/{id}/image',
			'/api/qr-codes/{id}/image?size=1e3&shape=round',
			'/api/qr-codes/{id}/image?size=99999999999&format=svg',
			'/api/qr-codes/{id}/image?size=-1',
			'/api/qr-codes/{id}/image?size=NaN&shape=circular',
		],
		[],
	),
	api(
		'api/qr-codes/:id/download',
		'GET',
		[
			'/api/qr-codes/{id}/download',
			'/api/qr-codes/{id}/download?format=svg&shape=square',
			'/api/qr-codes/{id}/download?format=gif',
			'/api/qr-codes/{id}/download?format=png&size=120',
		],
		[],
	),
	api('api/medical-profiles', 'GET', ['/api/medical-profiles'], []),
	api(
		'api/medical-profile',
		'GET POST PUT PATCH DELETE',
		['/api/medical-profile', '/api/medical-profile/{id}'],
		[...PERSONAL, ...FAMILY, 'isScannable', 'additionalNotes'],
	),
	api(
		'api/emergency-contacts',
		'GET POST DELETE',
		['/api/emergency-contacts', '/api/emergency-contacts/{id}', '/api/emergency-contacts?profileId={id}'],
		[...CONTACT, 'medicalProfileId'],
		profileIds,
	),
	api(
		'api/allergies',
		'GET POST DELETE',
		['/api/allergies', '/api/allergies/{id}', '/api/allergies?profileId={id}'],
		[...ALLERGY, 'medicalProfileId'],
		profileIds,
	),
	api(
		'api/medications',
		'GET POST PUT DELETE',
		['/api/medications', '/api/medications/{id}', '/api/medications?profileId={id}'],
		[...MEDICATION, 'medicalProfileId'],
		profileIds,
	),
	api(
		'api/medical-conditions',
		'GET POST PUT DELETE',
		['/api/medical-conditions', '/api/medical-conditions/{id}', '/api/medical-conditions?profileId={id}'],
		[...CONDITION, 'medicalProfileId'],
		profileIds,
	),
	api(
		'api/insurance-policies',
		'GET POST PUT DELETE',
		['/api/insurance-policies', '/api/insurance-policies/{id}', '/api/insurance-policies?profileId={id}'],
		[...POLICY, 'medicalProfileId'],
		profileIds,
	),
	api(
		'api/medical-documents',
		'GET DELETE',
		['/api/medical-documents', '/api/medical-documents/{id}', '/api/medical-documents?profileId={id}'],
		['medicalProfileId'],
		profileIds,
	),
	api('api/upload', 'POST', ['/api/upload'], ['type', 'policyId', 'file'], (p) => ({
		type: fc.constantFrom<Value>('insurance-card', 'document', ''),
		policyId: ids(p),
	})),
	api('api/upload-document', 'POST', ['/api/upload-document'], ['medicalProfileId', 'document'], profileIds),
	api('api/upload-profile-picture', 'POST', ['/api/upload-profile-picture'], ['medicalProfileId', 'picture'], profileIds),
	api('api/user/access-level', 'GET', ['/api/user/access-level'], []),
	api('api/user/profile', 'PUT', ['/api/user/profile'], ['firstName', 'lastName']),
	api('api/user/email', 'GET PUT DELETE', ['/api/user/email'], ['email']),
	api('api/account', 'DELETE', ['/api/account'], []),
	api('api/products', 'GET', ['/api/products', '/api/products?for=request', '/api/products?for=%00'], []),
	api('api/address-suggestions', 'POST', ['/api/address-suggestions'], ['query']),
	api('api/validate-discount', 'POST', ['/api/validate-discount'], ['code', 'subtotal']),
	api(
		'api/create-shop-order',
		'POST',
		['/api/create-shop-order'],
		[
			'items',
			'subtotal',
			'discountCode',
			'discountAmount',
			'shippingCost',
			'totalAmount',
			'shippingMethod',
			'shippingCountry',
			'shippingAddress',
			'selectedQrCodeId',
			'idempotencyKey',
		],
		(p) => ({
			selectedQrCodeId: ids(p),
			items: fc.array(
				fc.record(
					{
						productId: fc.constantFrom<Value>(...p.productIds, ...p.ids),
						name: fc.constantFrom<Value>('x', null),
						price: fc.constantFrom<Value>(0, -1, new RawJson('1e309'), '12.00', null),
						quantity: fc.constantFrom<Value>(1, 0, -5, 1e9, '2'),
					},
					{ requiredKeys: [] },
				),
				{ maxLength: 60 },
			),
		}),
	),
	api(
		'api/qr-codes/preview',
		'POST',
		['/api/qr-codes/preview'],
		['profileId', 'customization', 'type', 'accessLevel', 'expiresIn', 'preview', ...QR_LOOK],
		(p) => ({ profileId: ids(p) }),
	),
	api(
		'api/qr-codes',
		'GET POST PATCH DELETE',
		['/api/qr-codes', '/api/qr-codes/{id}'],
		['profileId', 'customization', 'type', 'accessLevel', 'expiresIn', ...QR_LOOK],
		(p) => ({ profileId: ids(p) }),
	),
	api('api/qr-codes/:id/toggle', 'PATCH', ['/api/qr-codes/{id}/toggle'], []),
	api('api/qr-codes/:id/scans', 'GET', ['/api/qr-codes/{id}/scans'], []),
	api('api/medical-profiles/:id/ips', 'GET', ['/api/medical-profiles/{id}/ips'], []),
	api(
		'api/medical-profiles/:id/caregivers',
		'GET POST DELETE',
		['/api/medical-profiles/{id}/caregivers', '/api/medical-profiles/{id}/caregivers/{id}'],
		['email', 'role'],
		(p) => ({
			email: fc.constantFrom<Value>(...p.emails, 'someone@example.com'),
			role: fc.constantFrom<Value>('editor', 'viewer', 'owner'),
		}),
	),
	api(
		'api/medical-profiles/:id/import',
		'POST',
		['/api/medical-profiles/{id}/import', '/api/medical-profiles/{id}/import/confirm'],
		['bundle', 'shlink', 'passcode', 'accept'],
		() => ({ bundle: spoiledBundleArb() }),
	),
	// SMART Health Links: a viewer on another site; the ids here are no manifest's, so each must end in a 4xx.
	api('shl/:manifestId', 'POST', ['/shl/{id}', `/shl/${'A'.repeat(43)}`], ['recipient', 'passcode', 'embeddedLengthMax']),
	api('shl/:manifestId/file', 'GET', ['/shl/{id}/file', `/shl/${'A'.repeat(43)}/file?token=9999999999.x`], ['token']),
	api('api/profiles/:id/qr-codes', 'GET', ['/api/profiles/{id}/qr-codes'], []),
	api('api/profiles/:id/update-qr-codes', 'POST', ['/api/profiles/{id}/update-qr-codes'], []),
	api('api/unknown', 'GET POST', ['/api/does-not-exist', '/api/qr-codes/{id}/nope', '/api/medical-profile/{id}/{id}'], []),

	// Pages with an action.
	page(
		'medical-info',
		['/medical-info', '/dashboard', '/', '/medical-info?profile={id}&dialog=x&edit={id}'],
		[
			'intent',
			'profileId',
			'id',
			...PERSONAL,
			...FAMILY,
			...CONTACT,
			...ALLERGY,
			...MEDICATION,
			...CONDITION,
			...POLICY,
			...DNR,
			'isScannable',
			'additionalNotes',
			'picture',
			'document',
			'cardFrontPhoto',
			'email',
			'role',
		],
		(p) => ({
			intent: intent(MEDICAL_INTENTS),
			profileId: ids(p),
			id: ids(p),
		}),
	),
	page(
		'medical-info/import',
		['/medical-info/import?profile={id}', '/medical-info/import'],
		['intent', 'bundle', 'shlink', 'passcode', 'accept'],
		() => ({ intent: intent(['import-read', 'import-confirm']), bundle: spoiledBundleArb().map(serialize) }),
	),
	page('landing', ['/auth', '/register', '/signin', '/subscribe'], ['intent', 'pin'], (p) => ({
		intent: intent(['claim-pin']),
		pin: fc.constantFrom<Value>(...p.pins),
	})),
	page(
		'login',
		['/login', '/login?redirectTo=%2F%2Fevil.example', '/login?redirectTo=javascript:alert(1)'],
		['email', 'password', 'redirectTo'],
		(p) => ({ email: fc.constantFrom<Value>(...p.emails) }),
	),
	page('signup', ['/signup'], ['username', 'email', 'password', 'consent']),
	page(
		'claim',
		['/claim/{pin}', '/claim/{id}', '/claim/%F0%9F%98%80', '/claim/' + 'A'.repeat(3000)],
		['intent', 'pin', 'profileId'],
		(p) => ({
			intent: intent(['claim-pin']),
			pin: fc.constantFrom<Value>(...p.pins),
			profileId: fc.oneof(ids(p), fc.constant<Value>('own')),
		}),
	),
	page(
		'consent',
		['/consent', '/consent?redirectTo=%2F%2Fevil.example'],
		['intent', 'redirectTo', 'hipaa', 'terms', 'emergency_disclaimer'],
		() => ({ intent: intent(['agree', 'dismiss-notice']) }),
	),
	page(
		'qr-codes',
		['/dashboard/qr-codes', '/dashboard/qr-codes?code={id}'],
		['intent', 'codeId', 'profileId', 'linkId', 'label', 'passcode', 'expires', ...QR_LOOK],
		(p) => ({
			intent: intent(QR_INTENTS),
			codeId: ids(p),
			profileId: ids(p),
			linkId: ids(p),
		}),
	),
	// Never delete-account or sign-out-everywhere: the attacker's session has to last the whole run (it is filtered out once more when sending).
	page('profile', ['/dashboard/profile'], ['intent', 'firstName', 'lastName', 'email'], (p) => ({
		intent: intent(['update-name', 'change-email', 'cancel-email-change']),
		email: fc.constantFrom<Value>(...p.emails),
	})),
	page('confirm-email', ['/account/confirm-email', '/account/confirm-email?token={id}'], ['token', 'endOtherSessions']),
	page('invitation', ['/invitations/{id}', `/invitations/${'A'.repeat(43)}`], []),
	page('auth-link', ['/auth/link'], ['password']),
	page('shop', ['/shop', '/shop?product={id}'], ['intent', ...CART_ITEM], (p) => ({
		intent: intent(['add']),
		productId: fc.constantFrom<Value>(...p.productIds, ...p.ids),
	})),
	page('cart', ['/cart'], ['intent', ...CART_ITEM, ...DRAFT], (p) => ({
		intent: fc.oneof(
			intent(CART_INTENTS),
			fc
				.tuple(
					fc.constantFrom('increase', 'decrease', 'remove', 'use-suggestion'),
					fc.constantFrom('', '0', '-1', '99', '1|#DC2626|0|0|circular|', '__proto__', 'a:b:c'),
				)
				.map(([i, a]) => `${i}:${a}`),
		),
		productId: fc.constantFrom<Value>(...p.productIds),
		selectedQrCodeId: ids(p),
	})),
	page(
		'request-products',
		['/request-products'],
		['productId', 'color', 'qrCodeUrl', 'profileId', 'size-1', 'size-5', 'addSticker-4'],
		(p) => ({ productId: fc.constantFrom<Value>(...p.requestProductIds, ...p.ids) }),
	),
	page('order-tracking', ['/order-tracking', '/order-tracking?number=%00'], ['confirmationNumber', 'email'], (p) => ({
		email: fc.constantFrom<Value>(...p.emails),
	})),
	page('request-qr', ['/request-qr'], QR_REQUEST),
	page('cyber-banner', ['/cyber-banner/dismiss'], ['redirectTo']),

	// Pages and resources without an action: other methods and bodies must still be refused cleanly.
	{
		...page(
			'no-action',
			[
				'/team',
				'/payment-options',
				'/order-complete?order={id}',
				'/request-qr/sent',
				'/dashboard/qr-codes/{id}/print',
				'/files/picture/{id}',
				'/files/document/{id}',
				'/files/card/{id}',
				'/files/dnr/{id}',
				'/files/../{id}',
				'/shop/preview.svg?color=%23DC2626&customText=%F0%9F%98%80',
				'/scan/{pin}',
				'/scan/{pin}/picture',
				'/qr/{pin}',
				'/auth/callback?code=x&state=y',
				'/does-not-exist/{id}',
				'/%2e%2e/%2e%2e/etc/passwd',
			],
			[],
		),
		methods: ['GET', 'POST'],
	},
]

const c = (...values: Value[]) => fc.constantFrom<Value>(...values)
const text = fc.oneof(c('Alex', "O'Brien", 'Zoë', '李小龍', 'مرحبا', 'a'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }))
/** Mostly the attacker's own id, often the victim's. */
const mineOr = (mine: number[], theirs: number[]) =>
	fc.oneof({ arbitrary: fc.constantFrom<Value>(...mine), weight: 3 }, { arbitrary: fc.constantFrom<Value>(...theirs), weight: 2 })
/** For deletions: the victim's ids mostly, so the attacker's own data lasts most of the run. */
const theirsMostly = (mine: number[], theirs: number[]) =>
	fc.oneof({ arbitrary: fc.constantFrom<Value>(...mine), weight: 1 }, { arbitrary: fc.constantFrom<Value>(...theirs), weight: 5 })

/** Bodies each target would accept, for nearlyValidArb to spoil a field or two of. */
export function validBodies(p: Pools): Record<string, Valid[]> {
	const profile = mineOr(p.mine.profileIds, p.theirs.profileIds)
	const code = mineOr(p.mine.codeIds, p.theirs.codeIds)
	const row = mineOr(p.mine.rowIds, p.theirs.rowIds)
	const policy = mineOr(p.mine.policyIds, p.theirs.policyIds)
	const pin = fc.constantFrom<Value>(...p.freePins, ...p.pins.slice(0, 3))
	const product = fc.constantFrom<Value>(...p.productIds)
	const requestProduct = fc.constantFrom<Value>(...p.requestProductIds)
	const newEmail = fc.integer({ min: 0, max: 1e9 }).map((n) => `fz${n}@e2e.example`)
	const personal = {
		firstName: text,
		lastName: text,
		dateOfBirth: c('1990-01-31', '2000-02-29'),
		bloodType: c('O+', 'AB-'),
		gender: c('Male', 'Prefer not to say'),
		phoneNumber: c('+1 (555) 010-0000'),
		height: c('180 cm'),
		streetAddress: text,
		city: text,
		zipCode: c('12345'),
	}
	const family = {
		fullName: text,
		relationshipToUser: c('child', 'spouse'),
		gender: c('female', 'other'),
		dateOfBirth: c('2015-05-05'),
		pin,
	}
	const contact = { name: text, relationship: c('Friend'), phoneNumber: c('+1 555 0100'), email: c('a@example.com') }
	const allergy = { allergen: text, severity: c('Mild', 'Severe'), reaction: text }
	const medication = { name: text, dosage: c('5 mg'), frequency: c('daily'), prescribingDoctor: text, startDate: c('2020-01-01') }
	const condition = { condition: text, status: c('Active', 'Chronic'), diagnosedDate: c('2019-03-03'), notes: text }
	const insurance = {
		provider: text,
		policyNumber: c('P-1'),
		relationship: c('self', 'other'),
		planType: c('HMO'),
		effectiveDate: c('2024-01-01'),
		expirationDate: c('2030-01-01'),
		providerPhone: c('+1 555 0100'),
		notes: text,
	}
	const look = {
		color: c('#DC2626', '#2563eb'),
		textColor: c('#000000', '#FFFFFF'),
		circular: c(true, false),
		customText: c('Hi', 'Call 911', '\u{1F600}\u{1F600}', 'Zoë'),
		transparentBackground: c(false, true),
		width: c(400, 100, 2000),
		margin: c(2, 10),
	}
	const formLook = { ...look, circular: c('on', ''), transparentBackground: c('on', '') }
	const address = { streetAddress: text, city: text, state: text, postalCode: c('12345'), country: c('US') }
	const shipping = { name: text, address1: text, city: text, postalCode: c('12345'), country: c('US', 'CA') }
	return {
		'api/signup': [{ username: text, email: newEmail, password: c('Passw0rd!!'), consent: c(true, 'on') }],
		'api/consent': [{ consentType: c('hipaa', 'terms', 'emergency_disclaimer'), agreed: c(true) }],
		'api/pin/validate': [{ pin }],
		'api/pin/claim': [{ pin, medicalProfileId: profile }],
		'api/qr-request': [{ fullName: text, email: c('a@example.com'), quantity: c(1, 10), notes: text, shippingAddress: fc.record(address) }],
		'api/medical-profile': [personal, family, { isScannable: c(true, false, 'true'), additionalNotes: text }],
		'api/emergency-contacts': [{ medicalProfileId: profile, ...contact }],
		'api/allergies': [{ medicalProfileId: profile, ...allergy }],
		'api/medications': [{ medicalProfileId: profile, ...medication }],
		'api/medical-conditions': [{ medicalProfileId: profile, ...condition }],
		'api/insurance-policies': [{ medicalProfileId: profile, ...insurance }],
		'api/user/profile': [{ firstName: text, lastName: text }],
		'api/user/email': [{ email: fc.oneof(newEmail, c(...p.emails)) }],
		'api/address-suggestions': [{ query: text }],
		'api/validate-discount': [{ code: c('FREE72', 'free72', 'NOPE'), subtotal: c(10, '10.5') }],
		'api/create-shop-order': [
			{
				items: fc.array(fc.record({ productId: product, quantity: c(1, 2) }), { minLength: 1, maxLength: 3 }),
				selectedQrCodeId: code,
				shippingAddress: fc.record({ name: text, address1: text, city: text, postalCode: c('12345') }),
				shippingCountry: c('US'),
				shippingMethod: c('standard', 'express'),
			},
		],
		'api/qr-codes/preview': [{ profileId: profile, accessLevel: c('basic', 'full'), preview: c(true), customization: fc.record(look) }],
		'api/qr-codes': [
			{ profileId: profile, type: c('emergency'), accessLevel: c('full'), expiresIn: c('never'), customization: fc.record(look) },
			look,
		],
		'medical-info': [
			{ intent: c('save-profile'), profileId: profile, ...personal },
			{ intent: c('add-family'), ...family },
			{ intent: c('add-contact'), profileId: profile, ...contact },
			{ intent: c('add-allergy'), profileId: profile, ...allergy },
			{ intent: c('add-medication', 'update-medication'), profileId: profile, id: row, ...medication },
			{ intent: c('add-condition', 'update-condition'), profileId: profile, id: row, ...condition },
			{ intent: c('save-policy'), profileId: profile, id: policy, ...insurance },
			{
				intent: c('save-dnr'),
				profileId: profile,
				dnrStatus: c('None', 'Unknown', 'DNR', 'POLST'),
				dnrDocumentDate: c('2020-01-01'),
				dnrOriginalLocation: text,
			},
			{ intent: c('save-notes', 'clear-notes'), profileId: profile, additionalNotes: text },
			{ intent: c('set-scanning', 'update-qr-codes'), profileId: profile, isScannable: c('on', '') },
			{
				intent: c('delete-contact', 'delete-allergy', 'delete-medication', 'delete-condition'),
				profileId: profile,
				id: theirsMostly(p.mine.rowIds, p.theirs.rowIds),
			},
			{ intent: c('delete-policy'), profileId: profile, id: theirsMostly(p.mine.policyIds, p.theirs.policyIds) },
			{ intent: c('delete-document'), profileId: profile, id: theirsMostly(p.mine.documentIds, p.theirs.documentIds) },
			{ intent: c('delete-profile', 'remove-picture', 'clear-dnr'), profileId: theirsMostly(p.mine.profileIds, p.theirs.profileIds) },
			{ intent: c('invite-caregiver'), profileId: profile, email: c(...p.emails), role: c('editor', 'viewer', 'owner') },
			{ intent: c('revoke-caregiver', 'leave-profile'), profileId: profile, id: row },
		],
		landing: [{ intent: c('claim-pin'), pin }],
		login: [{ email: c(...p.emails), password: c('Wrong-pass-1!', 'x') }],
		signup: [{ username: text, email: newEmail, password: c('Passw0rd!!'), consent: c('on') }],
		claim: [{ intent: c('claim-pin'), profileId: fc.oneof(profile, c('own')) }],
		consent: [
			{
				intent: c('agree'),
				hipaa: c('1', '2'),
				terms: c('1'),
				emergency_disclaimer: c('1'),
				redirectTo: c('/dashboard', '//evil.example'),
			},
		],
		'qr-codes': [
			{ intent: c('customize'), codeId: code, ...formLook },
			{ intent: c('generate'), profileId: profile, ...formLook },
			{ intent: c('toggle', 'assign-profile'), codeId: code, profileId: profile },
			{ intent: c('delete'), codeId: theirsMostly(p.mine.codeIds, p.theirs.codeIds) },
			{ intent: c('shl-create'), profileId: profile, label: text, passcode: c('', '2468'), expires: c('1d', 'never', '5y') },
			{ intent: c('shl-revoke'), linkId: row },
		],
		'shl/:manifestId': [{ recipient: text, passcode: text, embeddedLengthMax: c(0, 100, 1e9, -1, 1.5) }],
		'api/medical-profiles/:id/import': [{ bundle: c(SUMMARY), accept: c(['allergy-0'], ['dnr-None']) }],
		'medical-info/import': [
			{ intent: c('import-read'), shlink: c('shlink:/eyJ1cmwiOiJ4In0', 'https://viewer.example/#shlink:/x'), passcode: text },
			{ intent: c('import-confirm'), bundle: c(serialize(SUMMARY)), accept: c('allergy-0', 'dnr-None') },
		],
		profile: [
			{ intent: c('update-name'), firstName: text, lastName: text },
			{ intent: c('change-email'), email: fc.oneof(newEmail, c(...p.emails)) },
		],
		shop: [
			{
				productId: product,
				quantity: c(1, 3),
				color: c('#DC2626'),
				qrShape: c('circular', 'square'),
				customText: c('Hi', 'Zoë'),
				addSticker: c('', '', 'on'),
				transparentBackground: c('', 'on'),
			},
		],
		cart: [
			{ intent: c('add'), productId: product, quantity: c(1, 3), color: c('#2563EB'), qrShape: c('square') },
			{ intent: c('apply-discount'), discountInput: c('FREE72', 'NOPE') },
			{ intent: c('checkout'), ...shipping, shippingMethod: c('standard', 'overnight'), selectedQrCodeId: code },
			{ intent: c('search-address'), addressQuery: text },
			{ intent: c('use-suggestion:0', 'update-shipping', 'remove-discount'), country: c('US', 'CA') },
		],
		'request-products': [
			{
				productId: requestProduct,
				color: c('#DC2626'),
				qrCodeUrl: c('https://example.com/x'),
				profileId: profile,
				'size-1': c('small', 'large'),
				'size-5': c('extra-small'),
				'addSticker-4': c('on'),
			},
		],
		'order-tracking': [{ confirmationNumber: c('HMH-123456'), email: c(...p.emails) }],
		'request-qr': [{ fullName: text, email: c('a@example.com'), quantity: c('1', '10'), notes: text, ...address }],
		'cyber-banner': [{ redirectTo: c('/shop', '//evil.example', 'https://evil.example', '/\\evil') }],
	}
}

/** A path with its `{id}` and `{pin}` filled. */
function pathArb(pools: Pools, template: string): fc.Arbitrary<string> {
	const parts = template.split(/(\{id\}|\{pin\})/)
	return fc
		.tuple(
			...parts.map((part) =>
				part === '{id}'
					? fc.constantFrom(...pools.ids).map(pathSegment)
					: part === '{pin}'
						? fc.constantFrom(...pools.pins).map(pathSegment)
						: fc.constant(part),
			),
		)
		.map((p) => p.join(''))
}

function pathSegment(value: string | number) {
	const text = String(value)
	// Odd ids are sent as written when they are already URL-safe (%ZZ, %00 stay as they are).
	return /^[\w.%+-]*$/.test(text) ? text : encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'))
}

function dataPath(path: string) {
	const [pathname, query] = path.split('?') as [string, string | undefined]
	if (pathname === '/') return `/_root.data?index${query ? `&${query}` : ''}`
	return `${pathname.replace(/\/$/, '')}.data${query ? `?${query}` : ''}`
}

/** One request to one target: the method, path (sometimes as a single-fetch .data request), who sends it, and a body. */
export function requestArb(pools: Pools, target: Target, valid: Valid[] = []): fc.Arbitrary<FuzzRequest> {
	const method = fc.oneof(
		{ arbitrary: fc.constantFrom(...target.methods), weight: 16 },
		{ arbitrary: fc.constantFrom(...METHODS), weight: 3 },
		{ arbitrary: fc.constantFrom(...ODD_METHODS), weight: 1 },
	)
	const path = fc.constantFrom(...target.paths).chain((template) => pathArb(pools, template))
	const fixed = target.fixed?.(pools) ?? {}
	return fc
		.record({
			method,
			path,
			single: target.page ? fc.boolean() : fc.constant(false),
			auth: fc.constantFrom<Auth>('attacker', 'attacker', 'anonymous'),
			body: bodyArb(pools, target.fields, fixed, target.prefer, valid),
			origin: fc.oneof(
				{ arbitrary: fc.constantFrom<FuzzRequest['origin']>('same', 'none'), weight: 12 },
				{ arbitrary: fc.constantFrom<FuzzRequest['origin']>('cross', 'null'), weight: 1 },
			),
			accept: fc.constantFrom(undefined, undefined, 'application/json', 'text/html', '*/*'),
			quirk: fc.oneof(
				{ arbitrary: fc.constant<Quirk>('none'), weight: 12 },
				{
					arbitrary: fc.constantFrom<Quirk>(
						'cookie-garbage',
						'cookie-tampered',
						'cookie-huge',
						'cookie-twice',
						'host-other',
						'forwarded-for',
						'accept-language',
					),
					weight: 1,
				},
			),
			// Now and then odd query parameters as well, for the loaders that read them.
			query: fc.oneof({ arbitrary: fc.constant(''), weight: 6 }, { arbitrary: queryArb(pools), weight: 1 }),
		})
		.map(({ method, path, single, query, ...rest }) => {
			const full = query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path
			return { target: target.name, method, path: single ? dataPath(full) : full, ...rest }
		})
}

const QUERY_NAMES = [
	'profile',
	'dialog',
	'edit',
	'code',
	'product',
	'order',
	'number',
	'redirectTo',
	'returnTo',
	'index',
	'_data',
	'profileId',
	'size',
	'shape',
	'format',
	'for',
	'color',
	'customText',
	'qrShape',
	'qrCodeUrl',
	'free72',
	'__proto__',
]

function queryArb(pools: Pools): fc.Arbitrary<string> {
	const value = fc.oneof(
		fc.constantFrom(...pools.ids).map(pathSegment),
		fc.constantFrom(
			'',
			'%00',
			'%ZZ',
			'%',
			'%C0%80',
			'%FF',
			'..%2F..%2F',
			'%0D%0ASet-Cookie:x=1',
			'a'.repeat(5000),
			'1e3',
			'-1',
			'true',
			'%F0%9F%98%80',
			'%E2%80%AE',
		),
		fc.string({ maxLength: 12 }).map((v) => encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, ''))),
	)
	return fc
		.array(fc.tuple(fc.constantFrom(...QUERY_NAMES), value), { minLength: 1, maxLength: 4 })
		.map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'))
}

/** Requests spread over every target. */
export function anyRequestArb(pools: Pools): fc.Arbitrary<FuzzRequest> {
	const valid = validBodies(pools)
	return fc.oneof(...TARGETS.map((target) => ({ arbitrary: requestArb(pools, target, valid[target.name]), weight: target.page ? 3 : 2 })))
}

/**
 * The part that is not random: every target and path with every method, signed in and out. Each JSON endpoint's first
 * path with an id gets every id of `allIds` (the victim's among them); other paths with an id get `fewIds`.
 */
export function everyRouteOnce(pools: Pools, allIds: Array<string | number>, fewIds: Array<string | number>): FuzzRequest[] {
	const out: FuzzRequest[] = []
	const add = (target: Target, template: string, id: string | number, method: string, auth: Auth) => {
		const pin = pools.pins[Math.abs(Number(id) || 0) % pools.pins.length]!
		const path = template.replaceAll('{id}', pathSegment(id)).replaceAll('{pin}', pathSegment(pin))
		const body: Body =
			method === 'GET' || method === 'HEAD'
				? { kind: 'none' }
				: target.prefer === 'json'
					? { kind: 'json', value: {}, contentType: 'application/json' }
					: { kind: 'form', fields: [], style: 'encoded', contentType: 'application/x-www-form-urlencoded' }
		out.push({ target: target.name, method, path, auth, origin: 'same', body })
	}
	for (const target of TARGETS) {
		const firstWithId = target.page ? undefined : target.paths.find((p) => p.includes('{id}'))
		for (const template of target.paths) {
			if (!template.includes('{')) {
				for (const method of [...METHODS, 'HEAD', 'OPTIONS'])
					for (const auth of ['attacker', 'anonymous'] as const) add(target, template, 0, method, auth)
				continue
			}
			const ids = template === firstWithId ? allIds : fewIds
			const methods = target.page ? ['GET', 'POST'] : METHODS
			for (const id of ids) for (const method of methods) add(target, template, id, method, 'attacker')
			for (const id of fewIds.slice(0, 3)) for (const method of ['GET', 'POST']) add(target, template, id, method, 'anonymous')
		}
	}
	return out
}

const form = (fields: Record<string, string>): Body => ({
	kind: 'form',
	fields: Object.entries(fields),
	style: 'encoded',
	contentType: 'application/x-www-form-urlencoded',
})
const edge = (
	target: string,
	method: string,
	path: string,
	auth: Auth,
	body: Body = { kind: 'none' },
	headers?: Record<string, string>,
): FuzzRequest => ({ target, method, path, auth, body, origin: 'same', headers })

/**
 * Requests sent one at a time after the generated ones: inputs that once broke the server (a 500, or the process
 * gone), kept so a run always tries them. Those that stopped the process come last, so the rest of a run is not lost.
 */
export function edgeRequests(pools: Pools): FuzzRequest[] {
	const requestProduct = (productId: string) => form({ productId, color: '#DC2626', qrCodeUrl: 'https://example.com/x', 'size-1': 'small' })
	return [
		...['1.5', '1e21', '9007199254740992', '2147483648', '-1', '99999999999999999999999999'].map((id) =>
			edge('edges', 'POST', '/request-products', 'attacker', requestProduct(id)),
		),
		edge('edges', 'POST', '/request-products.data', 'attacker', requestProduct('0.5')),
		edge('edges', 'POST', '/shop', 'attacker', form({ productId: '1.5', quantity: '1' })),
		edge('edges', 'POST', '/cart', 'attacker', form({ intent: 'add', productId: '1e21' })),
		edge('edges', 'POST', '/api/create-shop-order', 'attacker', {
			kind: 'json',
			value: { items: [{ productId: 1.5 }], selectedQrCodeId: pools.mine.codeIds[0] ?? 1 },
			contentType: 'application/json',
		}),
		// A Host header URL parsing refuses (a port out of range, a bare bracket).
		...['localhost:99999', 'localhost:65536', 'localhost:-1', '[', '[::1', 'a:b:c'].map((host) =>
			edge('edges', 'GET', '/', 'anonymous', undefined, { host }),
		),
		edge(
			'edges',
			'POST',
			'/api/consent',
			'attacker',
			{ kind: 'json', value: {}, contentType: 'application/json' },
			{ host: 'localhost:99999' },
		),
		// TRACE, which the Fetch API's Request refuses to construct.
		edge('edges', 'TRACE', '/', 'anonymous'),
		edge('edges', 'TRACE', '/api/auth/user', 'attacker'),
	]
}
