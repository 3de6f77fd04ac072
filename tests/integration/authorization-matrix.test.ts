import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { setLegacyAccess } from '#app/domain/admin/legacy-access.server.ts'
import { statementLink } from '#app/domain/giving/statements.server.ts'
import { env } from '#app/utils/env.server.ts'
import { appHandler, fullPath, routeModule, routeTable, serverErrors } from '#tests/app-handler.ts'
import {
	ACTORS,
	CAREGIVERS,
	cookieFor,
	createWorld,
	freshExtras,
	furnishA,
	healthSummary,
	resetAccountLimits,
	tokenCookie,
	withNewAccount,
	send,
	type Actor,
	type Answer,
	type CaregiverActor,
	type Body,
	type World,
} from '#tests/authorization-world.ts'
import { SAMPLE_FILES, uniqueEmail } from '#tests/factories.ts'
import { inviteCaregiver } from '#app/domain/profiles/caregivers.server.ts'

/**
 * Who may do what, for every route of app/routes.ts, through the app's own request handler (root and layout middleware,
 * loaders, actions, error boundaries). User A owns a profile with a row and a file of every kind, a claimed sticker, an
 * order and a gift; user B, the owner (past the second factor) and the owner before the second factor try to read and
 * change them by id, and a visitor tries without signing in. A shared A's own profile (not the family member's) with an
 * editor and a viewer, and revoked a third caregiver: what each may do there is README's caregivers table.
 */

/**
 * - ok: any 2xx;
 * - sign-in: to /api/login, coming back to the same address afterwards;
 * - auth: to /auth, where the dashboard sends someone signed out;
 * - two-factor: to the owner's second factor, coming back afterwards;
 * - '→/path': a redirect to that path (with or without a query);
 * - a number: that status.
 */
type Outcome = 'ok' | 'sign-in' | 'auth' | 'two-factor' | `→${string}` | number
type Expect = Record<Actor, Outcome>
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Url = string | ((w: World, actor: Actor) => string)
type BodyOf = (w: World, actor: Actor) => Body

type Case = {
	/** The route's path as app/routes.ts builds it, with a leading slash. */
	route: string
	method: Method
	/** What the case tries. */
	what: string
	url: Url
	body?: BodyOf
	expect: Expect
	/** Who may see A's data in the answer (the owner's order views, a code's responder page). */
	reveals?: readonly Actor[]
	/**
	 * 'data': A's things made anew first, for a row whose success on A's side removes or spends something a later row
	 * uses (a deletion, a used upload); 'people': each actor acts as an account of its own, made for the row (deleting
	 * one's account: the owner's two sessions are one account). A success of A's that should have been refused shows
	 * as a failure of a later row's A cell, since A always acts last.
	 */
	fresh?: 'data' | 'people'
	/** The JS-enabled page request (`.data`) answers otherwise: a document POST also runs the page's loaders. */
	dataExpect?: Expect
	/** Puts back what the row changed beyond A's things (an account setting). */
	after?: (w: World) => Promise<void>
	/** Makes what the row acts on, beyond A's things (an invitation waiting on A's profile). */
	prepare?: (w: World) => Promise<Partial<World>>
}

/** The three caregivers get `o`: by default they are people like any other. */
const asCaregivers = (o: Outcome): Record<CaregiverActor, Outcome> => ({ caregiverEditor: o, caregiverViewer: o, caregiverRevoked: o })
const all = (o: Outcome): Expect => ({ visitor: o, userA: o, userB: o, owner: o, ownerNo2fa: o, ...asCaregivers(o) })
const PUBLIC = all('ok')
/** Everyone signed in gets `o`, the visitor `visitor`. */
const signedIn = (visitor: Outcome, o: Outcome = 'ok'): Expect => ({
	visitor,
	userA: o,
	userB: o,
	owner: o,
	ownerNo2fa: o,
	...asCaregivers(o),
})
/** A's own thing: A gets `a`, everyone else signed in `others` (another person's id reads as an unknown one). */
const onlyA = (visitor: Outcome, a: Outcome = 'ok', others: Outcome = 404): Expect => ({
	visitor,
	userA: a,
	userB: others,
	owner: others,
	ownerNo2fa: others,
	...asCaregivers(others),
})
/** Owner pages: a visitor signs in, a person sees Access Denied, the owner passes the second factor first. */
const ownerPage = (owner: Outcome = 'ok'): Expect => ({
	visitor: 'sign-in',
	userA: 403,
	userB: 403,
	owner,
	ownerNo2fa: 'two-factor',
	...asCaregivers(403),
})
const ownerApi = (owner: Outcome = 'ok'): Expect => ({ visitor: 401, userA: 403, userB: 403, owner, ownerNo2fa: 403, ...asCaregivers(403) })

// A's own profile, shared with an editor and a viewer (the revoked caregiver stays a stranger, as `expect` says):
/** Reading it: both caregivers get what A gets. */
const readable = (expect: Expect): Expect => ({ ...expect, caregiverEditor: expect.userA, caregiverViewer: expect.userA })
/** Changing its medical information: the editor gets what A gets, the viewer is told they may only read it. */
const editable = (expect: Expect): Expect => ({ ...expect, caregiverEditor: expect.userA, caregiverViewer: 403 })
/** What only its owner does (settings, codes, links, cards, sharing, deleting it): both caregivers are told so. */
const ownersOnly = (expect: Expect): Expect => ({ ...expect, caregiverEditor: 403, caregiverViewer: 403 })
const OWNER: readonly Actor[] = ['owner']

const get = (route: string, what: string, url: Url, expect: Expect, more: Partial<Case> = {}): Case => ({
	route,
	method: 'GET',
	what,
	url,
	expect,
	...more,
})
const call = (method: Method, route: string, what: string, url: Url, body: BodyOf | undefined, expect: Expect, more: Partial<Case> = {}) =>
	({ route, method, what, url, body, expect, ...more }) satisfies Case
const post = (route: string, what: string, url: Url, body: BodyOf | undefined, expect: Expect, more: Partial<Case> = {}) =>
	call('POST', route, what, url, body, expect, more)

const form =
	(fields: (w: World, actor: Actor) => Record<string, string>): BodyOf =>
	(w, actor) => ({ form: fields(w, actor) })
const json =
	(value: (w: World, actor: Actor) => unknown): BodyOf =>
	(w, actor) => ({ json: value(w, actor) })
const files =
	(fields: (w: World) => Record<string, string>, field: string, file: () => File): BodyOf =>
	(w) => ({ multipart: fields(w), files: { [field]: file() } })

/** The actor's own profile: a form names it with someone else's row. */
const own = (w: World, actor: Actor) => String(actor === 'visitor' ? w.a.profileId : w.ownProfile[actor])
const thisYear = () => new Date().getUTCFullYear()
const aDayAgo = () => new Date(Date.now() - 36 * 3600_000).toISOString().slice(0, 10)
const ADMIN_TOKEN = 'authorization-matrix-admin-token-0123456789'
const address = { streetAddress: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }
const shipping = { name: 'Rosa Shopper', address1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' }

/**
 * A dashboard form: the gate sends a visitor to /auth. On / the form names the index route (`?index`), and signed out /
 * is the landing page, so there the action itself asks the visitor to sign in.
 */
const dashboardForm = (
	path: string,
	what: string,
	fields: (w: World, actor: Actor) => Record<string, string>,
	done: Outcome,
	more: Partial<Case> = {},
) =>
	post(
		path,
		what,
		path === '/' ? '/?index' : path,
		form(fields),
		{ ...onlyA('auth', done), ...(path === '/' ? { visitor: 'sign-in' as const } : {}) },
		more,
	)
const medical = (what: string, fields: (w: World, actor: Actor) => Record<string, string>, more: Partial<Case> = {}) =>
	dashboardForm('/medical-info', what, fields, '→/medical-info', more)
/** A form of A's shared profile that changes its medical information: the editor's as A's, the viewer's refused. */
const edits = (c: Case): Case => ({ ...c, expect: editable(c.expect), ...(c.dataExpect && { dataExpect: editable(c.dataExpect) }) })
/** A form of A's shared profile that only its owner may send. */
const owners = (c: Case): Case => ({ ...c, expect: ownersOnly(c.expect), ...(c.dataExpect && { dataExpect: ownersOnly(c.dataExpect) }) })
/** A read of A's shared profile. */
const reads = (c: Case): Case => ({ ...c, expect: readable(c.expect) })
/** An invitation to A's profile, waiting for its answer, for a row that revokes one. */
const PENDING = {
	prepare: async (w: World) => ({
		pendingCaregiverId: (await inviteCaregiver(w.people.userA.id, w.a.profileId, { email: uniqueEmail('pending'), role: 'viewer' })).id,
	}),
}
const qrPage = (what: string, fields: (w: World, actor: Actor) => Record<string, string>, more: Partial<Case> = {}) =>
	dashboardForm('/dashboard/qr-codes', what, fields, '→/dashboard/qr-codes', more)
const FRESH = { fresh: 'data' } as const
const SUMMARY = healthSummary()

/** Spec 001 §7's sections: list, add, change and delete, on A's profile and rows. */
const SECTIONS = [
	['/api/emergency-contacts', 'contactId', { name: 'Mallory', relationship: 'Friend', phoneNumber: '+1 555 0199' }, null],
	['/api/allergies', 'allergyId', { allergen: 'Pollen', severity: 'Mild' }, null],
	['/api/medications', 'medicationId', { name: 'Aspirin' }, { name: 'Aspirin', dosage: '1 mg' }],
	['/api/medical-conditions', 'conditionId', { condition: 'Asthma', status: 'Active' }, { condition: 'Asthma', status: 'Managed' }],
	['/api/insurance-policies', 'policyId', { provider: 'Mallory Health' }, { provider: 'Mallory Health' }],
	['/api/medical-documents', 'documentId', null, null],
] as const

const sectionCases = SECTIONS.flatMap(([path, row, add, put]): Case[] => {
	const route = `${path}/:id?`
	return [
		reads(get(route, "list A's profile's rows", (w) => `${path}?profileId=${w.a.profileId}`, onlyA(401))),
		edits(call('DELETE', route, "delete A's row", (w) => `${path}/${w.a[row]}`, undefined, onlyA(401), FRESH)),
		...(add
			? [
					edits(
						post(
							route,
							"add a row to A's profile",
							path,
							json((w) => ({ medicalProfileId: w.a.profileId, ...add })),
							onlyA(401),
						),
					),
				]
			: []),
		...(put
			? [
					edits(
						call(
							'PUT',
							route,
							"change A's row",
							(w) => `${path}/${w.a[row]}`,
							json(() => put),
							onlyA(401),
						),
					),
				]
			: []),
	]
})

const fileOf = (kind: 'picture' | 'dnr' | 'card' | 'document' | 'upload') =>
	get(
		'/files/:kind/:id',
		`A's ${kind} file`,
		(w) => {
			const id = { picture: w.a.profileId, dnr: w.a.profileId, card: w.a.policyId, document: w.a.documentId, upload: w.a.uploadId }[kind]
			return `/files/${kind}/${id}`
		},
		kind === 'upload' ? onlyA('sign-in') : readable(onlyA('sign-in')),
	)

const CASES: Case[] = [
	// The dashboard: one gate for its loaders and actions.
	get('/', 'the landing page, or the dashboard', '/', PUBLIC),
	edits(
		dashboardForm(
			'/',
			"add an allergy to A's profile",
			(w) => ({ intent: 'add-allergy', profileId: `${w.a.profileId}`, allergen: 'Pollen', severity: 'Mild' }),
			'→/',
		),
	),
	get('/dashboard', "ask for A's profile", (w) => `/dashboard?profile=${w.a.profileId}`, signedIn('auth')),
	edits(
		dashboardForm(
			'/dashboard',
			"delete A's allergy, naming one's own profile",
			(w, actor) => ({ intent: 'delete-allergy', profileId: own(w, actor), id: `${w.a.allergyId}` }),
			'→/dashboard',
			FRESH,
		),
	),
	get('/medical-info', "ask for A's profile", (w) => `/medical-info?profile=${w.a.profileId}`, signedIn('auth')),
	edits(
		medical("save notes on A's profile", (w) => ({
			intent: 'save-notes',
			profileId: `${w.a.profileId}`,
			additionalNotes: 'Mallory was here',
		})),
	),
	edits(medical("rename A's profile", (w) => ({ intent: 'save-profile', profileId: `${w.a.profileId}`, firstName: 'Mallory' }))),
	edits(
		medical("change A's medication, naming one's own profile", (w, actor) => ({
			intent: 'update-medication',
			profileId: own(w, actor),
			id: `${w.a.medicationId}`,
			name: 'Placebo',
		})),
	),
	edits(
		medical("change A's condition, naming one's own profile", (w, actor) => ({
			intent: 'update-condition',
			profileId: own(w, actor),
			id: `${w.a.conditionId}`,
			condition: 'None',
			status: 'Resolved',
		})),
	),
	edits(
		medical("change A's policy, naming one's own profile", (w, actor) => ({
			intent: 'save-policy',
			profileId: own(w, actor),
			id: `${w.a.policyId}`,
			provider: 'Mallory Health',
		})),
	),
	edits(
		medical(
			"delete A's contact, naming one's own profile",
			(w, actor) => ({
				intent: 'delete-contact',
				profileId: own(w, actor),
				id: `${w.a.contactId}`,
			}),
			FRESH,
		),
	),
	edits(
		medical(
			"delete A's document, naming one's own profile",
			(w, actor) => ({
				intent: 'delete-document',
				profileId: own(w, actor),
				id: `${w.a.documentId}`,
			}),
			FRESH,
		),
	),
	edits(
		medical(
			"delete A's policy, naming one's own profile",
			(w, actor) => ({
				intent: 'delete-policy',
				profileId: own(w, actor),
				id: `${w.a.policyId}`,
			}),
			FRESH,
		),
	),
	owners(medical("turn scanning off on A's profile", (w) => ({ intent: 'set-scanning', profileId: `${w.a.profileId}` }))),
	owners(medical("confirm A's profile for its codes", (w) => ({ intent: 'update-qr-codes', profileId: `${w.a.profileId}` }))),
	edits(medical("clear A's DNR status", (w) => ({ intent: 'clear-dnr', profileId: `${w.a.profileId}` }), FRESH)),
	edits(medical("remove A's picture", (w) => ({ intent: 'remove-picture', profileId: `${w.a.profileId}` }), FRESH)),
	owners(
		medical("invite someone to help keep A's profile", (w) => ({
			intent: 'invite-caregiver',
			profileId: `${w.a.profileId}`,
			email: uniqueEmail('page-invitee'),
			role: 'viewer',
		})),
	),
	owners(
		medical(
			"revoke an invitation to A's profile",
			(w) => ({ intent: 'revoke-caregiver', profileId: `${w.a.profileId}`, id: `${w.pendingCaregiverId}` }),
			PENDING,
		),
	),
	owners(
		medical(
			"leave A's profile in someone else's place",
			(w) => ({ intent: 'leave-profile', profileId: `${w.a.profileId}`, id: `${w.pendingCaregiverId}` }),
			PENDING,
		),
	),
	medical("delete A's family member's profile", (w) => ({ intent: 'delete-profile', profileId: `${w.a.familyProfileId}` }), FRESH),
	edits(
		post(
			'/medical-info',
			"upload a picture to A's profile",
			'/medical-info',
			files((w) => ({ intent: 'upload-picture', profileId: `${w.a.profileId}` }), 'picture', SAMPLE_FILES.png),
			onlyA('auth', '→/medical-info'),
		),
	),
	edits(
		post(
			'/medical-info',
			"upload a document to A's profile",
			'/medical-info',
			files((w) => ({ intent: 'upload-document', profileId: `${w.a.profileId}` }), 'document', SAMPLE_FILES.pdf),
			onlyA('auth', '→/medical-info'),
		),
	),
	// Filling a profile from a health summary: another person's profile is not found, on the page and by its forms.
	get(
		'/medical-info/import',
		"fill A's profile from a health summary",
		(w) => `/medical-info/import?profile=${w.a.profileId}`,
		onlyA('auth'),
	),
	post(
		'/medical-info/import',
		"read a health summary for A's profile",
		(w) => `/medical-info/import?profile=${w.a.profileId}`,
		files(
			() => ({ intent: 'import-read' }),
			'bundle',
			() => new File([JSON.stringify(SUMMARY.bundle)], 'summary.json', { type: 'application/json' }),
		),
		onlyA('auth'),
	),
	post(
		'/medical-info/import',
		"add a health summary's allergy to A's profile",
		(w) => `/medical-info/import?profile=${w.a.profileId}`,
		form(() => ({ intent: 'import-confirm', bundle: JSON.stringify(SUMMARY.bundle), accept: SUMMARY.allergyId })),
		onlyA('auth', '→/medical-info'),
	),
	get(
		'/dashboard/qr-codes',
		"ask for A's code and its scans",
		(w) => `/dashboard/qr-codes?code=${w.a.codeId}&history=${w.a.codeId}`,
		signedIn('auth'),
	),
	qrPage("turn A's code off", (w) => ({ intent: 'toggle', codeId: `${w.a.codeId}` })),
	qrPage("restyle A's code", (w) => ({ intent: 'customize', codeId: `${w.a.codeId}` })),
	qrPage("point A's code at one's own profile", (w, actor) => ({
		intent: 'assign-profile',
		codeId: `${w.a.codeId}`,
		profileId: own(w, actor),
	})),
	owners(qrPage("generate a code for A's profile", (w) => ({ intent: 'generate', profileId: `${w.a.profileId}` }))),
	qrPage("delete A's code", (w) => ({ intent: 'delete', codeId: `${w.a.codeId}` }), FRESH),
	owners(
		qrPage("make a SMART Health Link for A's profile", (w) => ({ intent: 'shl-create', profileId: `${w.a.profileId}`, expires: '1d' })),
	),
	qrPage("revoke A's SMART Health Link", (w) => ({ intent: 'shl-revoke', linkId: `${w.a.healthLinkId}` }), FRESH),
	get('/dashboard/qr-codes/:id/print', "print A's code", (w) => `/dashboard/qr-codes/${w.a.codeId}/print`, onlyA('auth')),
	get('/dashboard/profile', "one's own account", '/dashboard/profile', signedIn('auth')),
	get('/dashboard/profile/access-record', "one's own access record", '/dashboard/profile/access-record', signedIn('auth')),
	post(
		'/dashboard/profile',
		'rename oneself',
		'/dashboard/profile',
		form(() => ({ intent: 'update-name', firstName: 'Renamed', lastName: 'Person' })),
		signedIn('auth', '→/dashboard/profile'),
	),
	post(
		'/dashboard/profile',
		"take A's e-mail address",
		'/dashboard/profile',
		form((w) => ({ intent: 'change-email', email: w.people.userA.email })),
		signedIn('auth', 400),
	),
	post(
		'/dashboard/profile',
		"delete one's own account",
		'/dashboard/profile',
		form(() => ({ intent: 'delete-account' })),
		signedIn('auth', '→/'),
		{ fresh: 'people' },
	),
	get('/dashboard/giving', "one's own giving", '/dashboard/giving', signedIn('auth')),
	post(
		'/dashboard/giving',
		"manage one's monthly gift (there is none)",
		'/dashboard/giving',
		form(() => ({})),
		signedIn('auth', 400),
	),

	// Signing in, PINs, claiming, consent.
	get('/auth', 'the landing page', '/auth', PUBLIC),
	post(
		'/auth',
		"validate A's claimed PIN",
		'/auth',
		form((w) => ({ intent: 'claim-pin', pin: w.a.codePin })),
		all(400),
	),
	get('/register', 'the landing page (signed in: the dashboard)', '/register', signedIn('ok', '→/dashboard')),
	post(
		'/register',
		"validate A's claimed PIN",
		'/register',
		form((w) => ({ intent: 'claim-pin', pin: w.a.codePin })),
		// Signed in, the page's loader (run after the action) sends the person on to the dashboard.
		signedIn(400, '→/dashboard'),
		{ dataExpect: all(400) },
	),
	get('/signin', 'the landing page (signed in: the dashboard)', '/signin', signedIn('ok', '→/dashboard')),
	post(
		'/signin',
		"validate A's claimed PIN",
		'/signin',
		form((w) => ({ intent: 'claim-pin', pin: w.a.codePin })),
		// Signed in, the page's loader (run after the action) sends the person on to the dashboard.
		signedIn(400, '→/dashboard'),
		{ dataExpect: all(400) },
	),
	get('/login', 'the sign-in page (signed in: the dashboard)', '/login', signedIn('ok', '→/dashboard')),
	post(
		'/login',
		'sign in as A with a wrong password',
		'/login',
		form((w) => ({ email: w.people.userA.email, password: 'Not-the-password-1!' })),
		// Signed in, the page's loader (run after the action) sends the person on to the dashboard.
		signedIn(400, '→/dashboard'),
		{ dataExpect: all(400) },
	),
	get('/signup', 'the signup page', '/signup', PUBLIC),
	post(
		'/signup',
		"sign up with A's e-mail",
		'/signup',
		form((w) => ({
			email: w.people.userA.email,
			username: `taken${Date.now().toString(36)}`,
			password: 'Another-horse-9!',
			consent: 'on',
		})),
		all(400),
	),
	get('/auth/callback', 'the identity provider’s return (none is set up)', '/auth/callback', all('→/login')),
	get('/auth/link', 'linking a provider’s account (none is set up)', '/auth/link', all('→/login')),
	post(
		'/auth/link',
		"link with A's password (none is set up)",
		'/auth/link',
		form(() => ({ password: 'Not-the-password-1!' })),
		all('→/login'),
	),
	get('/account/confirm-email', 'confirm an e-mail change with a forged token', '/account/confirm-email?token=forged', all(404)),
	post(
		'/account/confirm-email',
		'confirm an e-mail change with a forged token',
		'/account/confirm-email',
		form(() => ({ token: 'forged' })),
		all(404),
	),
	get('/review/:token', "a review reminder's link, forged", `/review/${'f'.repeat(43)}`, all(404)),
	post(
		'/review/:token',
		"confirm A's profile with a forged reminder link",
		`/review/${'f'.repeat(43)}`,
		form(() => ({})),
		all(404),
	),
	get('/invitations/:token', 'a forged caregiver invitation', `/invitations/${'f'.repeat(43)}`, all(404)),
	post(
		'/invitations/:token',
		'accept a forged caregiver invitation',
		`/invitations/${'f'.repeat(43)}`,
		form(() => ({})),
		signedIn('sign-in', 404),
	),
	// Whoever holds an invitation's link sees whose profile it is for (the e-mail says as much); accepting takes the account
	// of the invited address.
	get('/invitations/:token', "A's invitation to someone else", (w) => `/invitations/${w.invitationToken}`, PUBLIC, { reveals: ACTORS }),
	post(
		'/invitations/:token',
		"accept A's invitation to someone else",
		(w) => `/invitations/${w.invitationToken}`,
		form(() => ({})),
		signedIn('sign-in', 403),
		{ reveals: ACTORS },
	),
	get('/claim/:pin', "open A's claimed PIN", (w) => `/claim/${w.a.codePin}`, PUBLIC),
	post(
		'/claim/:pin',
		"claim A's sticker onto one's own profile",
		(w) => `/claim/${w.a.codePin}`,
		form((w, actor) => ({ profileId: own(w, actor) })),
		signedIn('sign-in', 400),
	),
	owners(
		post(
			'/claim/:pin',
			"claim a free sticker onto A's profile",
			(w) => `/claim/${w.freePin}`,
			form((w) => ({ profileId: `${w.a.profileId}` })),
			onlyA('sign-in', '→/claim'),
		),
	),
	get('/consent', 'the consent forms (all agreed: on to the dashboard)', '/consent', signedIn('sign-in', '→/dashboard')),
	post(
		'/consent',
		'dismiss the consent notice',
		'/consent',
		form(() => ({ intent: 'dismiss-notice' })),
		signedIn('sign-in', '→/dashboard'),
		// With JavaScript the notice closes in place.
		{ dataExpect: signedIn('sign-in') },
	),

	// Private files: their owner's alone.
	fileOf('picture'),
	fileOf('dnr'),
	fileOf('card'),
	fileOf('document'),
	fileOf('upload'),

	// The shop and orders.
	get('/shop', 'the shop', '/shop', PUBLIC),
	post(
		'/shop',
		'add to the cart',
		'/shop',
		form((w) => ({ productId: `${w.productId}`, quantity: '1' })),
		all('→/shop'),
	),
	get('/shop/preview.svg', 'a product preview', '/shop/preview.svg', PUBLIC),
	get('/cart', 'the cart', '/cart', PUBLIC),
	post(
		'/cart',
		'choose shipping',
		'/cart',
		form(() => ({ intent: 'update-shipping' })),
		all('→/cart'),
	),
	get('/request-products', "products for one's own codes", '/request-products', signedIn('sign-in')),
	post(
		'/request-products',
		'a product without a code',
		'/request-products',
		form((w) => ({ productId: `${w.productId}`, qrCodeUrl: '' })),
		signedIn('sign-in', 400),
	),
	get('/order-complete', "A's order by its number", (w) => `/order-complete?order=${w.a.orderNumber}`, onlyA('ok')),
	get('/shop-success', "A's order by its number", (w) => `/shop-success?order=${w.a.orderNumber}`, onlyA('ok')),
	get('/order-tracking', "A's order by its number alone", (w) => `/order-tracking?number=${w.a.orderNumber}`, PUBLIC),
	post(
		'/order-tracking',
		"track A's order with another e-mail",
		'/order-tracking',
		form((w) => ({ confirmationNumber: w.a.orderNumber, email: uniqueEmail('guess') })),
		all(404),
	),
	post(
		'/order-tracking',
		"track A's order with A's e-mail (the proof asked for)",
		'/order-tracking',
		form((w) => ({ confirmationNumber: w.a.orderNumber, email: w.people.userA.email })),
		all('→/order-tracking'),
	),

	// A code's responder page is for whoever holds the code.
	get('/scan/:token', "scan A's code", (w) => `/scan/${w.a.codeToken}`, PUBLIC, { reveals: ACTORS }),
	// Anyone holding A's code may say they are helping (the alert goes to A and A's chosen contacts); what was sent is shown
	// only to the responder who sent it (a cookie of theirs), so without one the page is the responder page.
	post(
		'/scan/:token/helping',
		"say one is helping A's person",
		(w) => `/scan/${w.a.codeToken}/helping`,
		form(() => ({ where: 'Here' })),
		all('→/scan'),
	),
	get(
		'/scan/:token/helping',
		"what was sent about A's person, without having sent it",
		(w) => `/scan/${w.a.codeToken}/helping`,
		all('→/scan'),
	),
	get('/scan/:token/:kind', "the DNR document behind A's code", (w) => `/scan/${w.a.codeToken}/dnr`, PUBLIC),
	get('/scan/:token/:kind', "the photo behind A's code", (w) => `/scan/${w.a.codeToken}/photo`, PUBLIC),
	// A SMART Health Link opens A's summary for whoever holds it (encrypted with the link's key), signed in or not.
	post(
		'/shl/:manifestId',
		"A's SMART Health Link's manifest",
		(w) => `/shl/${w.a.healthLinkManifest}`,
		json(() => ({ recipient: 'Authorization matrix' })),
		PUBLIC,
		{ reveals: ACTORS },
	),
	post(
		'/shl/:manifestId',
		'a forged manifest address',
		`/shl/${'f'.repeat(43)}`,
		json(() => ({ recipient: 'Authorization matrix' })),
		all(404),
	),
	get('/shl/:manifestId', "A's SMART Health Link's manifest, read with GET", (w) => `/shl/${w.a.healthLinkManifest}`, all(405)),
	get(
		'/shl/:manifestId/file',
		"A's link's file, with a forged address",
		(w) => `/shl/${w.a.healthLinkManifest}/file?token=1.forged`,
		all(404),
	),
	get('/qr/:token', "the short link of A's code", (w) => `/qr/${w.a.codeToken}`, all('→/scan')),

	// Public pages and giving.
	get('/request-qr', 'the free code form', '/request-qr', PUBLIC),
	post(
		'/request-qr',
		'request a free code',
		'/request-qr',
		form(() => ({ fullName: 'Ada Guest', email: uniqueEmail('req'), quantity: '1', ...address })),
		all('→/request-qr/sent'),
	),
	get('/request-qr/sent', 'the receipt (none in this session)', '/request-qr/sent', all('→/request-qr')),
	get('/team', 'the team page', '/team', PUBLIC),
	get('/payment-options', 'payment options', '/payment-options', PUBLIC),
	get('/subscribe', 'the monthly gift page', '/subscribe', PUBLIC),
	post(
		'/subscribe',
		'start a monthly gift (giving is not set up)',
		'/subscribe',
		form(() => ({ plan: 'basic' })),
		all(503),
	),
	get('/pricing', 'the plans', '/pricing', PUBLIC),
	get('/donate', 'the guest donation page', '/donate', PUBLIC),
	post(
		'/donate',
		'donate (giving is not set up)',
		'/donate',
		form(() => ({ tier: 'supporter' })),
		all(503),
	),
	get('/support', 'the support page', '/support', PUBLIC),
	post(
		'/support',
		'give (giving is not set up)',
		'/support',
		form(() => ({ tier: 'supporter' })),
		// Giving that is not set up is said before a gift through this page would ask for sign-in.
		all(503),
	),
	get('/donation-success', "the return from A's checkout", (w) => `/donation-success?session_id=${w.a.donationSession}`, PUBLIC),
	get('/checkout', 'the in-page checkout without a payment', '/checkout', all('→/donate')),
	get(
		'/dashboard/giving/statement/:year',
		"one's own year statement",
		() => `/dashboard/giving/statement/${thisYear()}`,
		signedIn('sign-in'),
	),
	get(
		'/giving/statement',
		"A's guest statement, forged",
		(w) => `/giving/statement?${new URLSearchParams({ email: w.people.userA.email, year: `${thisYear()}`, sig: 'forged' })}`,
		all(404),
	),
	get(
		'/giving/statement',
		"A's guest statement by its signed link",
		(w) => statementLink(w.people.userA.email, thisYear()).replace(env.PUBLIC_URL, ''),
		PUBLIC,
	),
	get('/cyber-banner/dismiss', 'the banner link', '/cyber-banner/dismiss', all('→/')),
	post(
		'/cyber-banner/dismiss',
		'hide the banner',
		'/cyber-banner/dismiss',
		form(() => ({ redirectTo: '/shop' })),
		all('→/shop'),
	),
	get('/notices/opt-out', 'the opt-out page', '/notices/opt-out?token=forged', PUBLIC),
	post(
		'/notices/opt-out',
		'opt out with a forged token',
		'/notices/opt-out',
		form(() => ({ token: 'forged' })),
		all(400),
	),

	// The way into the admin area.
	get('/owner-panel', 'the admin token page', '/owner-panel', signedIn('sign-in')),
	post(
		'/owner-panel',
		'a wrong admin token',
		'/owner-panel',
		form(() => ({ token: 'wrong-token' })),
		signedIn('sign-in', 400),
	),
	post(
		'/owner-panel',
		'the admin token (whoever holds it acts as the owner)',
		'/owner-panel',
		form(() => ({ token: ADMIN_TOKEN })),
		signedIn('sign-in', '→/admin'),
	),
	get('/owner-panel/two-factor', 'the second factor', '/owner-panel/two-factor', { ...ownerPage('→/admin'), ownerNo2fa: 'ok' }),
	post(
		'/owner-panel/two-factor',
		'a wrong code',
		'/owner-panel/two-factor',
		form(() => ({ code: '000000' })),
		{ ...ownerPage('→/admin'), ownerNo2fa: 400 },
	),
	post(
		'/api/validate-admin-token',
		'a wrong admin token',
		'/api/validate-admin-token',
		json(() => ({ token: 'wrong-token' })),
		signedIn(401),
	),

	// The admin area: pages, their forms and files.
	get('/admin', 'the overview', '/admin', ownerPage(), { reveals: OWNER }),
	get('/admin/orders', 'the orders', '/admin/orders', ownerPage(), { reveals: OWNER }),
	get('/admin/orders/:orderId', "A's order", (w) => `/admin/orders/${w.a.orderId}`, ownerPage(), { reveals: OWNER }),
	post(
		'/admin/orders/:orderId',
		"assign a code to A's order",
		(w) => `/admin/orders/${w.a.orderId}`,
		form((w) => ({ intent: 'assign', qrCodeIds: `${w.freeCodeId}` })),
		ownerPage('→/admin/orders'),
		{ reveals: OWNER, ...FRESH },
	),
	get('/admin/donations', 'the gifts', '/admin/donations', ownerPage(), { reveals: OWNER }),
	get('/admin/qr-scans', 'scan analytics', '/admin/qr-scans', ownerPage(), { reveals: OWNER }),
	get('/admin/traffic', 'traffic', '/admin/traffic', ownerPage(), { reveals: OWNER }),
	get('/admin/filtered', 'real users', '/admin/filtered', ownerPage(), { reveals: OWNER }),
	get('/admin/emails', 'e-mail analytics', '/admin/emails', ownerPage(), { reveals: OWNER }),
	get('/admin/consent', 'consent records', '/admin/consent', ownerPage(), { reveals: OWNER }),
	get('/admin/qr-management', 'QR management', '/admin/qr-management', ownerPage(), { reveals: OWNER }),
	post(
		'/admin/qr-management',
		'fulfil a free code request',
		'/admin/qr-management',
		form((w) => ({ intent: 'fulfil', requestId: `${w.qrRequestId}` })),
		ownerPage('→/admin/qr-management'),
		{ reveals: OWNER },
	),
	post(
		'/admin/qr-management',
		'let A generate codes',
		'/admin/qr-management',
		form((w) => ({ intent: 'legacy', userId: w.people.userA.id, on: 'true' })),
		ownerPage('→/admin/qr-management'),
		{ reveals: OWNER, after: (w) => setLegacyAccess(w.people.userA.id, false, w.people.owner.id).then(() => undefined) },
	),
	get('/admin/security', 'the security page', '/admin/security', ownerPage(), { reveals: OWNER }),
	get('/admin/audit', 'the audit log', '/admin/audit', ownerPage(), { reveals: OWNER }),
	post(
		'/admin/security',
		'new recovery codes, with a wrong code',
		'/admin/security',
		form(() => ({ intent: 'recovery-codes', code: '000000' })),
		ownerPage(400),
		{ reveals: OWNER },
	),
	get('/admin/order/:orderId', "A's shipping document", (w) => `/admin/order/${w.a.orderId}`, ownerPage(), { reveals: OWNER }),
	post(
		'/admin/order/:orderId',
		"mark A's shipping document made",
		(w) => `/admin/order/${w.a.orderId}`,
		form(() => ({})),
		// No codes are on the order yet: the owner is sent back to it with the reason.
		ownerPage('→/admin/orders'),
		{ reveals: OWNER, ...FRESH },
	),
	get('/admin/order/:orderId/pdf', "A's packing slip", (w) => `/admin/order/${w.a.orderId}/pdf`, ownerPage(), { reveals: OWNER }),
	get('/admin/orders.csv', 'every order as CSV', '/admin/orders.csv', ownerPage(), { reveals: OWNER }),
	get('/admin/analytics.csv', 'analytics as CSV', '/admin/analytics.csv', ownerPage(), { reveals: OWNER }),
	get('/admin/qr-management/batch', 'the batch form’s address', '/admin/qr-management/batch', ownerPage('→/admin/qr-management')),
	post(
		'/admin/qr-management/batch',
		'print a batch',
		'/admin/qr-management/batch',
		form(() => ({ count: '1', format: 'svg', layout: 'letter-grid', nudgeXMm: '0', nudgeYMm: '0' })),
		ownerPage(),
	),
	get('/admin/qr-management/batches/:batchId', 'an earlier batch', (w) => `/admin/qr-management/batches/${w.batchId}`, ownerPage()),
	post(
		'/admin/orders/seen',
		'dismiss the new-order alert',
		'/admin/orders/seen',
		form(() => ({ seenAt: new Date().toISOString() })),
		ownerPage('→/admin'),
	),
	get('/admin/orders/seen', 'the alert form’s address', '/admin/orders/seen', ownerPage(405)),
	post(
		'/admin/notify-visitors',
		'notify recent visitors',
		'/admin/notify-visitors',
		form(() => ({})),
		ownerPage('→/admin'),
	),
	get('/admin/notify-visitors', 'the notify form’s address', '/admin/notify-visitors', ownerPage(405)),

	// The admin area: spec 002 §7's JSON.
	get('/api/admin/orders', 'the orders', '/api/admin/orders', ownerApi(), { reveals: OWNER }),
	get('/api/admin/order-details/:orderId', "A's order", (w) => `/api/admin/order-details/${w.a.orderId}`, ownerApi(), { reveals: OWNER }),
	post(
		'/api/admin/orders/:orderId/assign-qr',
		"assign a code to A's order",
		(w) => `/api/admin/orders/${w.a.orderId}/assign-qr`,
		json((w) => ({ qrCodeIds: [w.freeCodeId] })),
		ownerApi(),
		{ reveals: OWNER, ...FRESH },
	),
	call(
		'PATCH',
		'/api/admin/orders/:orderId/status',
		"ship A's order before it has codes",
		(w) => `/api/admin/orders/${w.a.orderId}/status`,
		json(() => ({ fulfillmentStatus: 'shipped' })),
		ownerApi(409),
		FRESH,
	),
	get('/api/admin/qr-codes/:id/image', "A's code", (w) => `/api/admin/qr-codes/${w.a.codeId}/image`, ownerApi()),
	get('/api/admin/qr-stats', 'code counts', '/api/admin/qr-stats', ownerApi()),
	get('/api/admin/qr-requests', 'free code requests', '/api/admin/qr-requests', ownerApi(), { reveals: OWNER }),
	call(
		'PUT',
		'/api/admin/qr-request/:id/fulfill',
		'fulfil a request',
		(w) => `/api/admin/qr-request/${w.qrRequestId}/fulfill`,
		json(() => ({})),
		ownerApi(),
	),
	get('/api/admin/consent-records', 'consent records', '/api/admin/consent-records', ownerApi(), { reveals: OWNER }),
	post(
		'/api/notify-visitors',
		'notify recent visitors',
		'/api/notify-visitors',
		json(() => ({})),
		ownerApi(),
	),
	get('/api/admin/analytics', 'analytics', '/api/admin/analytics', ownerApi(), { reveals: OWNER }),
	get('/api/admin/analytics/filtered', 'real users', '/api/admin/analytics/filtered', ownerApi(), { reveals: OWNER }),
	get('/api/admin/traffic-analysis/:date', "a day's traffic", () => `/api/admin/traffic-analysis/${aDayAgo()}`, ownerApi(), {
		reveals: OWNER,
	}),
	get('/api/admin/email-analytics', 'e-mail analytics', '/api/admin/email-analytics', ownerApi(), { reveals: OWNER }),
	get('/api/qr-scan/analytics', 'scan analytics', '/api/qr-scan/analytics', ownerApi(), { reveals: OWNER }),
	get('/api/qr-scan/export', 'every scan as CSV', '/api/qr-scan/export', ownerApi(), { reveals: OWNER }),
	...['batch', 'word', 'pdf', 'svg'].map((kind) =>
		post(
			`/api/admin/generate-qr-${kind}`,
			'print a batch',
			`/api/admin/generate-qr-${kind}`,
			json(() => ({ count: 1 })),
			ownerApi(),
		),
	),

	// Public JSON and small resources.
	get('/api/login', 'start signing in', '/api/login', all('→/login')),
	get('/e/o/:trackingId', 'the open pixel', '/e/o/nothing', PUBLIC),
	get('/e/c/:trackingId', 'a click with a forged signature', '/e/c/nothing?u=%2Fshop&s=forged', all(400)),
	post(
		'/api/signup',
		"sign up with A's e-mail",
		'/api/signup',
		json((w) => ({
			email: w.people.userA.email,
			username: `taken${Date.now().toString(36)}`,
			password: 'Another-horse-9!',
			consent: true,
		})),
		all(409),
	),
	get('/api/auth/user', 'who am I', '/api/auth/user', signedIn(401)),
	post(
		'/api/page-view',
		'a page view',
		'/api/page-view',
		json(() => ({ path: '/shop' })),
		PUBLIC,
	),
	get('/healthz', 'health', '/healthz', PUBLIC),
	post('/api/auth/logout', 'sign out', '/api/auth/logout', undefined, all('→/auth')),
	post(
		'/api/consent',
		'agree to a form',
		'/api/consent',
		json(() => ({ consentType: 'terms', agreed: true })),
		signedIn(401),
	),
	get('/api/consent/texts', 'the forms', '/api/consent/texts', PUBLIC),
	get('/api/consent/status', "one's own consents", '/api/consent/status', signedIn(401)),
	post(
		'/api/pin/validate',
		"A's claimed PIN",
		'/api/pin/validate',
		json((w) => ({ pin: w.a.codePin })),
		all(400),
	),
	post(
		'/api/pin/claim',
		"claim A's sticker onto one's own profile",
		'/api/pin/claim',
		json((w, actor) => ({ pin: w.a.codePin, medicalProfileId: Number(own(w, actor)) })),
		signedIn(401, 400),
	),
	owners(
		post(
			'/api/pin/claim',
			"claim a free sticker onto A's profile",
			'/api/pin/claim',
			json((w) => ({ pin: w.freePin, medicalProfileId: w.a.profileId })),
			onlyA(401),
		),
	),
	post(
		'/api/qr-request',
		'request a free code',
		'/api/qr-request',
		json(() => ({ fullName: 'Ada Guest', email: uniqueEmail('req'), quantity: 1, shippingAddress: address })),
		PUBLIC,
	),

	// A's codes.
	get('/api/qr-codes/:id/image', "A's code image", (w) => `/api/qr-codes/${w.a.codeId}/image`, onlyA(401)),
	get('/api/qr-codes/:id/download', "A's code download", (w) => `/api/qr-codes/${w.a.codeId}/download?format=svg`, onlyA(401)),
	owners(
		post(
			'/api/qr-codes/preview',
			"preview A's profile's code",
			'/api/qr-codes/preview',
			json((w) => ({ profileId: w.a.profileId })),
			onlyA(401),
		),
	),
	get('/api/qr-codes/:id?', "one's own codes", '/api/qr-codes', signedIn(401)),
	owners(
		post(
			'/api/qr-codes/:id?',
			"generate a code for A's profile",
			'/api/qr-codes',
			json((w) => ({ profileId: w.a.profileId })),
			onlyA(401),
		),
	),
	get('/api/qr-codes/:id?', "A's code", (w) => `/api/qr-codes/${w.a.codeId}`, onlyA(401)),
	call(
		'PATCH',
		'/api/qr-codes/:id?',
		"restyle A's code",
		(w) => `/api/qr-codes/${w.a.codeId}`,
		json(() => ({ customization: { color: '#000000' } })),
		onlyA(401),
	),
	call('DELETE', '/api/qr-codes/:id?', "delete A's code", (w) => `/api/qr-codes/${w.a.codeId}`, undefined, onlyA(401), FRESH),
	call('PATCH', '/api/qr-codes/:id/toggle', "turn A's code off", (w) => `/api/qr-codes/${w.a.codeId}/toggle`, undefined, onlyA(401)),
	// The scan history of a code that shows A's shared profile is its editor's to see too.
	get('/api/qr-codes/:id/scans', "A's code's scans", (w) => `/api/qr-codes/${w.a.codeId}/scans`, {
		...onlyA(401),
		caregiverEditor: 'ok',
	}),
	owners(get('/api/profiles/:id/qr-codes', "A's profile's codes", (w) => `/api/profiles/${w.a.profileId}/qr-codes`, onlyA(401))),
	owners(
		post(
			'/api/profiles/:id/update-qr-codes',
			"confirm A's profile for its codes",
			(w) => `/api/profiles/${w.a.profileId}/update-qr-codes`,
			undefined,
			onlyA(401),
		),
	),

	// A's profiles and their sections.
	get('/api/medical-profiles', "one's own profiles", '/api/medical-profiles', signedIn(401)),
	owners(
		get(
			'/api/medical-profiles/:id/wallet-card.pdf',
			"A's profile's wallet card",
			(w) => `/api/medical-profiles/${w.a.profileId}/wallet-card.pdf?lang=es`,
			onlyA(401),
		),
	),
	owners(
		get(
			'/api/medical-profiles/:id/fridge-sheet.pdf',
			"A's profile's fridge sheet",
			(w) => `/api/medical-profiles/${w.a.profileId}/fridge-sheet.pdf?lang=fr&paper=a4`,
			onlyA(401),
		),
	),
	owners(
		get(
			'/api/medical-profiles/:id/lock-screen.png',
			"A's profile's lock-screen image",
			(w) => `/api/medical-profiles/${w.a.profileId}/lock-screen.png?w=1080&h=2400`,
			onlyA(401),
		),
	),
	owners(
		get(
			'/api/medical-profiles/:id/ips',
			"A's profile's International Patient Summary",
			(w) => `/api/medical-profiles/${w.a.profileId}/ips`,
			onlyA(401),
		),
	),
	owners(
		get(
			'/api/medical-profiles/:id/caregivers/:caregiverId?',
			"A's profile's caregivers",
			(w) => `/api/medical-profiles/${w.a.profileId}/caregivers`,
			onlyA(401),
		),
	),
	owners(
		post(
			'/api/medical-profiles/:id/caregivers/:caregiverId?',
			"invite someone to help keep A's profile",
			(w) => `/api/medical-profiles/${w.a.profileId}/caregivers`,
			json(() => ({ email: uniqueEmail('invitee'), role: 'editor' })),
			onlyA(401),
		),
	),
	owners(
		call(
			'DELETE',
			'/api/medical-profiles/:id/caregivers/:caregiverId?',
			"revoke an invitation to A's profile",
			(w) => `/api/medical-profiles/${w.a.profileId}/caregivers/${w.pendingCaregiverId}`,
			undefined,
			onlyA(401),
			PENDING,
		),
	),
	owners(
		post(
			'/api/medical-profiles/:id/import',
			"what a health summary would add to A's profile",
			(w) => `/api/medical-profiles/${w.a.profileId}/import`,
			json(() => ({ bundle: SUMMARY.bundle })),
			onlyA(401),
		),
	),
	owners(
		post(
			'/api/medical-profiles/:id/import/confirm',
			"add a health summary's allergy to A's profile",
			(w) => `/api/medical-profiles/${w.a.profileId}/import/confirm`,
			json(() => ({ bundle: SUMMARY.bundle, accept: [SUMMARY.allergyId] })),
			onlyA(401),
		),
	),
	get('/api/medical-profile/:id?', "one's own profile", '/api/medical-profile', signedIn(401)),
	post(
		'/api/medical-profile/:id?',
		"save one's own profile",
		'/api/medical-profile',
		json(() => ({ firstName: 'Own' })),
		signedIn(401),
	),
	post(
		'/api/medical-profile/:id?',
		"add a family member with A's claimed PIN",
		'/api/medical-profile',
		json((w) => ({ fullName: 'Kid', relationshipToUser: 'child', pin: w.a.codePin })),
		signedIn(401, 400),
	),
	reads(get('/api/medical-profile/:id?', "A's profile", (w) => `/api/medical-profile/${w.a.profileId}`, onlyA(401))),
	edits(
		call(
			'PUT',
			'/api/medical-profile/:id?',
			"change A's profile",
			(w) => `/api/medical-profile/${w.a.profileId}`,
			json(() => ({ firstName: 'Mallory' })),
			onlyA(401),
		),
	),
	edits(
		call(
			'PATCH',
			'/api/medical-profile/:id?',
			"change A's notes",
			(w) => `/api/medical-profile/${w.a.profileId}`,
			json(() => ({ additionalNotes: 'Mallory was here' })),
			onlyA(401),
		),
	),
	call(
		'PATCH',
		'/api/medical-profile/:id?',
		"use A's upload as one's own DNR document",
		(w, actor) => `/api/medical-profile/${own(w, actor)}`,
		json((w) => ({ dnrStatus: 'DNR', dnrDocumentUrl: w.a.uploadUrl })),
		onlyA(401, 'ok', 400),
		FRESH,
	),
	call(
		'PATCH',
		'/api/medical-profile/:id?',
		"use A's stored document as one's own picture",
		(w, actor) => `/api/medical-profile/${own(w, actor)}`,
		json((w) => ({ profilePictureUrl: `/files/document/${w.a.documentId}` })),
		signedIn(401, 400),
	),
	call(
		'DELETE',
		'/api/medical-profile/:id?',
		"delete A's family member's profile",
		(w) => `/api/medical-profile/${w.a.familyProfileId}`,
		undefined,
		onlyA(401),
		FRESH,
	),
	...sectionCases,
	post(
		'/api/medical-documents/:id?',
		"link A's upload to one's own profile",
		'/api/medical-documents',
		json((w, actor) => ({ medicalProfileId: Number(own(w, actor)), fileUrl: w.a.uploadUrl })),
		onlyA(401, 'ok', 400),
		FRESH,
	),
	edits(
		post(
			'/api/upload',
			"a card photo for A's policy",
			'/api/upload',
			files((w) => ({ type: 'insurance-card', policyId: `${w.a.policyId}` }), 'file', SAMPLE_FILES.png),
			onlyA(401),
		),
	),
	post(
		'/api/upload',
		'a card photo kept for later',
		'/api/upload',
		files(() => ({ type: 'insurance-card' }), 'file', SAMPLE_FILES.png),
		signedIn(401),
	),
	edits(
		post(
			'/api/upload-document',
			"a document for A's profile",
			'/api/upload-document',
			files((w) => ({ medicalProfileId: `${w.a.profileId}` }), 'document', SAMPLE_FILES.pdf),
			onlyA(401),
		),
	),
	edits(
		post(
			'/api/upload-profile-picture',
			"a picture for A's profile",
			'/api/upload-profile-picture',
			files((w) => ({ medicalProfileId: `${w.a.profileId}` }), 'picture', SAMPLE_FILES.png),
			onlyA(401),
		),
	),

	// One's own account and gifts.
	post(
		'/api/stripe/webhook',
		'an unsigned event (giving is not set up)',
		'/api/stripe/webhook',
		json(() => ({ type: 'payment_intent.succeeded' })),
		all(404),
	),
	get('/api/donations', "one's own gifts", '/api/donations', signedIn(401)),
	post(
		'/api/create-donation',
		'a gift (giving is not set up)',
		'/api/create-donation',
		json(() => ({ tierId: 'supporter', amount: 500 })),
		all(503),
	),
	post(
		'/api/create-payment-intent',
		'a guest gift (giving is not set up)',
		'/api/create-payment-intent',
		json(() => ({ amount: 5 })),
		all(503),
	),
	get('/api/subscription-status', "one's own monthly gift", '/api/subscription-status', signedIn(401)),
	get('/api/user/access-level', "one's own access level", '/api/user/access-level', signedIn(401)),
	post('/api/activate-free-access', 'take free access (the owner grants it)', '/api/activate-free-access', undefined, signedIn(401, 403)),
	get('/api/user/email', "one's own e-mail change waiting for its link", '/api/user/email', signedIn(401)),
	call('DELETE', '/api/user/email', "withdraw one's own e-mail change", '/api/user/email', undefined, signedIn(401)),
	call(
		'PUT',
		'/api/user/profile',
		'rename oneself',
		'/api/user/profile',
		json(() => ({ firstName: 'Renamed', lastName: 'Person' })),
		signedIn(401),
	),
	call(
		'PUT',
		'/api/user/email',
		"take A's e-mail address",
		'/api/user/email',
		json((w) => ({ email: w.people.userA.email })),
		onlyA(401, 400, 409),
	),
	call('DELETE', '/api/account', "delete one's own account", '/api/account', undefined, signedIn(401), { fresh: 'people' }),
	get('/api/products', 'the catalogue', '/api/products', PUBLIC),
	post(
		'/api/address-suggestions',
		'an address search',
		'/api/address-suggestions',
		json(() => ({ query: '12 Elm Street' })),
		PUBLIC,
	),
	post(
		'/api/validate-discount',
		'an unknown discount code',
		'/api/validate-discount',
		json(() => ({ code: 'NOPE-NOPE' })),
		all(404),
	),
	post(
		'/api/create-shop-order',
		"an order printed with A's code",
		'/api/create-shop-order',
		json((w) => ({ items: [{ productId: w.productId, quantity: 1 }], shippingAddress: shipping, selectedQrCodeId: w.a.codeId })),
		onlyA(401, 'ok', 400),
	),

	get('/*', 'an address that is no page', '/no-such-page', all(404)),
	post(
		'/*',
		'a post to an address that is no page',
		'/no-such-page',
		form(() => ({})),
		all(404),
	),
]

/** The routes of app/routes.ts that answer an address (layouts only hold them), by the path the table gives them. */
const TABLE = routeTable()
const ROUTES = TABLE.filter((r) => r.path !== undefined || r.index).map((r) => ({ ...r, pattern: `/${fullPath(r, TABLE)}` }))
const ancestors = (id: string): string[] => {
	const parent = TABLE.find((r) => r.id === id)?.parentId
	return parent ? [parent, ...ancestors(parent)] : []
}
/** The admin area: every route beneath the admin gate's layout. */
const GATED = new Set(ROUTES.filter((r) => ancestors(r.id).includes('routes/admin/gate')).map((r) => r.pattern))

/** The address the app itself names in a redirect back: the page's (pageUrl drops `.data`, `index` and `_routes`). */
function pagePath(url: string) {
	const u = new URL(url, 'http://localhost')
	u.searchParams.delete('index')
	return u.pathname + u.search
}

function matches(answer: Answer, outcome: Outcome, path: string) {
	const location = answer.status >= 300 && answer.status < 400 ? (answer.location ?? '') : null
	const back = `?${new URLSearchParams({ redirectTo: path })}`
	if (outcome === 'ok') return answer.status >= 200 && answer.status < 300
	if (outcome === 'sign-in') return location === `/api/login${back}`
	if (outcome === 'auth') return location === '/auth'
	if (outcome === 'two-factor') return location === `/owner-panel/two-factor${back}`
	if (typeof outcome === 'number') return answer.status === outcome
	const target = outcome.slice(1)
	return location !== null && location.startsWith(target) && /^(?:$|[?#/])/.test(location.slice(target.length))
}

/** The page's `.data` address, as the browser asks for it with JavaScript on (the index route's is /_.data). */
function dataUrl(url: string) {
	const u = new URL(url, 'http://localhost')
	return `${u.pathname === '/' ? '/_' : u.pathname}.data${u.search}`
}

/** A `.data` answer read as the page's: a redirect there is a 202 whose body names the target and the status. */
function fromData(answer: Answer): Answer {
	if (answer.status !== 202 || !answer.headers.has('x-remix-response')) return answer
	const values = JSON.parse(answer.text) as unknown[]
	const key = (name: string) => `_${values.indexOf(name)}`
	const holder = values.find((v): v is Record<string, number> => typeof v === 'object' && v !== null && key('redirect') in v)
	if (!holder) return answer
	return { ...answer, status: Number(values[holder[key('status')]!]), location: String(values[holder[key('redirect')]!]) }
}

const shown = (a: Answer) => `${a.status}${a.location ? ` → ${a.location}` : ''}: ${a.text.slice(0, 200).replace(/\s+/g, ' ')}`
const succeeds = (o: Outcome) => o === 'ok' || (typeof o === 'string' && o.startsWith('→'))
const urlOf = (c: Case, w: World, actor: Actor) => (typeof c.url === 'string' ? c.url : c.url(w, actor))
const sentText = (body: Body | undefined) =>
	!body ? '' : 'json' in body ? JSON.stringify(body.json) : Object.values('form' in body ? body.form : body.multipart).join(' ')

/**
 * Every row as a document request; a page's rows also as its `.data` request (JavaScript on), which runs the same
 * middleware by another path. Reads first, then changes.
 */
const PAGES = new Set(
	(await Promise.all(ROUTES.map(async (r) => ((await routeModule(r.file)).default ? r.pattern : null)))).filter(Boolean),
)
const posted = new Set<string>()
const ROWS = [...CASES.filter((c) => c.method === 'GET'), ...CASES.filter((c) => c.method !== 'GET')].flatMap((c) => {
	// Every page read, and each page's first form (or one that answers otherwise), also with JavaScript on.
	const twin = PAGES.has(c.route) && (c.method === 'GET' || c.dataExpect !== undefined || !posted.has(c.route))
	if (c.method !== 'GET') posted.add(c.route)
	return [{ ...c, variant: 'document' as const }, ...(twin ? [{ ...c, variant: 'data' as const }] : [])]
})

let shared: World
const saved = { OWNER_EMAIL: env.OWNER_EMAIL, ADMIN_TOKEN: env.ADMIN_TOKEN }

/** The world a row runs in: the shared one, or one with A's things (or everyone) made anew. */
async function worldFor(c: Case): Promise<World> {
	if (c.method === 'GET') return shared
	const extras = await freshExtras()
	const a = c.fresh === 'data' ? await furnishA(shared.people) : shared.a
	const world = { ...shared, a, ...extras }
	return { ...world, ...(await c.prepare?.(world)) }
}

/** Runs one row for every actor, as a page request or its `.data` twin; answers the mismatches in words. */
async function runCase(c: Case, variant: 'document' | 'data') {
	const base = await worldFor(c)
	await resetAccountLimits(base.people)
	const expected = variant === 'data' ? (c.dataExpect ?? c.expect) : c.expect
	const problems: string[] = []
	// Whoever should be refused goes first: a wrong success of theirs then shows in A's (or the owner's) answer too.
	const order = [...ACTORS].sort((x, y) => Number(succeeds(expected[x])) - Number(succeeds(expected[y])))
	for (const actor of order) {
		let w = c.fresh === 'people' ? { ...base, people: await withNewAccount(base.people, actor, base.a.profileId) } : base
		// A caregiver who may change A's things acts on things of their own making: A, acting last, still finds A's.
		if (c.fresh === 'data' && CAREGIVERS.includes(actor as CaregiverActor) && succeeds(expected[actor])) {
			const a = await furnishA(base.people)
			w = { ...w, a, ...(await c.prepare?.({ ...w, a })) }
		}
		env.OWNER_EMAIL = w.people.owner.email.toLowerCase()
		const url = urlOf(c, w, actor)
		const body = c.body?.(w, actor)
		serverErrors.length = 0
		const cookie = await cookieFor(w.people, actor)
		const answer = variant === 'data' ? fromData(await send(c.method, dataUrl(url), cookie, body)) : await send(c.method, url, cookie, body)
		if (!matches(answer, expected[actor], pagePath(url)))
			problems.push(`${actor}: expected ${String(expected[actor])}, got ${shown(answer)}`)
		for (const error of serverErrors) problems.push(`${actor}: the server failed: ${error instanceof Error ? error.stack : String(error)}`)
		if (actor !== 'userA' && !(c.reveals ?? []).includes(actor)) {
			// What the actor sent comes back in a refused form (the e-mail typed): that is no leak. The editor and the viewer
			// may see A's shared profile, and nothing else of A's.
			const sent = url + sentText(body)
			const theirs = actor === 'caregiverEditor' || actor === 'caregiverViewer' ? w.a.sharedMarkers : []
			const seen = w.a.markers.filter(
				(m) => !theirs.includes(m) && !sent.includes(m) && (answer.text.includes(m) || (answer.location ?? '').includes(m)),
			)
			if (seen.length) problems.push(`${actor}: the answer shows A's data (${seen.join(', ')})`)
		}
	}
	// The owner's other way in: a session (here user B's) that presented the admin token gets what the owner gets.
	if (c.method === 'GET' && GATED.has(c.route)) {
		const url = urlOf(c, base, 'owner')
		const cookie = await tokenCookie(base.people.userB.id)
		const answer = variant === 'data' ? fromData(await send('GET', dataUrl(url), cookie)) : await send('GET', url, cookie)
		if (!matches(answer, expected.owner, pagePath(url)))
			problems.push(`admin token session: expected ${String(expected.owner)}, got ${shown(answer)}`)
	}
	await c.after?.(base)
	return problems
}

describe('the authorization matrix', () => {
	test('has rows for every route of app/routes.ts, and for no other', () => {
		const known = new Set(ROUTES.map((r) => r.pattern))
		const listed = new Set(CASES.map((c) => c.route))
		const missing = [...known].filter((p) => !listed.has(p)).map((p) => `missing from the matrix: ${p}`)
		const stale = [...listed].filter((p) => !known.has(p)).map((p) => `in the matrix but not in app/routes.ts: ${p}`)
		expect(missing, missing.join('\n')).toEqual([])
		expect(stale, stale.join('\n')).toEqual([])
	})

	test('has a GET row for every loader and a row with another method for every action', async () => {
		const missing: string[] = []
		for (const route of ROUTES) {
			const module = await routeModule(route.file)
			const rows = CASES.filter((c) => c.route === route.pattern)
			// A resource() route exports one function as both; its methods are checked against its Allow header below.
			if (module.loader && module.loader === module.action) continue
			if (module.loader && !rows.some((c) => c.method === 'GET')) missing.push(`GET ${route.pattern} (its loader)`)
			if (module.action && !rows.some((c) => c.method !== 'GET')) missing.push(`POST ${route.pattern} (its action)`)
		}
		expect(missing, missing.join('\n')).toEqual([])
	})

	describe('every cell, through the request handler', () => {
		beforeAll(async () => {
			env.ADMIN_TOKEN = ADMIN_TOKEN
			await appHandler()
			shared = await createWorld()
		})
		afterAll(() => Object.assign(env, saved))

		test('has a row for every method a JSON route answers (its Allow header), with and without its optional id', async () => {
			const missing: string[] = []
			env.OWNER_EMAIL = shared.people.owner.email.toLowerCase()
			const owner = await cookieFor(shared.people, 'owner')
			for (const route of ROUTES) {
				const module = await routeModule(route.file)
				if (!module.loader || module.loader !== module.action) continue
				const rows = CASES.filter((c) => c.route === route.pattern)
				const urls = new Set(rows.map((c) => new URL(urlOf(c, shared, 'userA'), 'http://localhost').pathname))
				if (route.pattern.endsWith('?') && new Set([...urls].map((u) => u.split('/').length)).size < 2)
					missing.push(`${route.pattern}: rows both with and without the optional id`)
				for (const url of urls) {
					const answer = await send('OPTIONS', url, owner)
					// Outside /api the root middleware answers OPTIONS itself (405): a GET row is asked for there, as every other
					// page's (a form's address answers it 405, naming POST), and the route's own methods have rows of their own.
					const allowed = url.startsWith('/api/') ? (answer.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean) : ['GET']
					const shape = url.split('/').length
					for (const method of allowed)
						if (
							!rows.some(
								(c) => c.method === method && new URL(urlOf(c, shared, 'userA'), 'http://localhost').pathname.split('/').length === shape,
							)
						)
							missing.push(`${method} ${url} (${route.pattern})`)
				}
			}
			expect(missing, missing.join('\n')).toEqual([])
		})

		test.for(ROWS)('$method $route ($variant): $what', async ({ variant, ...c }) => {
			const problems = await runCase(c, variant)
			expect(problems, problems.join('\n')).toEqual([])
		})
	})
})
