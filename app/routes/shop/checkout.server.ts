import { randomUUID } from 'node:crypto'
import { DomainError } from '#app/utils/errors.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { searchAddresses } from '#app/adapters/address-search.server.ts'
import { listCodes } from '#app/domain/qr/manage.server.ts'
import { getSession, sessionStorage, type AppSession } from '#app/utils/session.server.ts'
import { addToCart, CartItemSchema, lineKey, lineProblem, removeLine, setLineQuantity } from '#app/domain/shop/cart.ts'
import { productsById } from '#app/domain/shop/cart.server.ts'
import { getCart, saveCart } from './cart-session.server.ts'
import { findDiscount } from '#app/domain/shop/discounts.server.ts'
import { createShopOrder } from '#app/domain/shop/orders.server.ts'
import { checkoutUrl } from '#app/domain/shop/orders.ts'
import { orderTotals } from '#app/domain/shop/pricing.ts'
import {
	addressFromSuggestion,
	CHECKOUT_MESSAGES,
	CheckoutSchema,
	DiscountCodeSchema,
	ORDER_MESSAGES,
	type AddressSuggestion,
} from '#app/domain/shop/schemas.ts'
import { countryCode, DEFAULT_COUNTRY, DEFAULT_METHOD, NO_SHIPPING, shippingOptions } from '#app/domain/shop/shipping.ts'

/** The checkout form's fields, kept in the session between submissions so nothing typed is lost without JavaScript. */
const DRAFT_FIELDS = [
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
] as const
export type Draft = Record<(typeof DRAFT_FIELDS)[number], string> & {
	key: string
	discountCode: string
	autofilled: string
	suggestions: AddressSuggestion[]
}

function readDraft(session: AppSession): Draft {
	const stored = (session.get('checkout') ?? {}) as Record<string, unknown>
	const text = (name: string, fallback = '') => (typeof stored[name] === 'string' ? (stored[name] as string) : fallback)
	let suggestions: AddressSuggestion[] = []
	try {
		suggestions = JSON.parse(text('suggestions', '[]')) as AddressSuggestion[]
	} catch {
		suggestions = []
	}
	return {
		...(Object.fromEntries(DRAFT_FIELDS.map((f) => [f, text(f)])) as Record<(typeof DRAFT_FIELDS)[number], string>),
		country: text('country', DEFAULT_COUNTRY),
		shippingMethod: text('shippingMethod', DEFAULT_METHOD),
		key: text('key') || randomUUID(),
		discountCode: text('discountCode'),
		autofilled: text('autofilled'),
		suggestions,
	}
}

function writeDraft(session: AppSession, draft: Draft) {
	const { suggestions, ...rest } = draft
	session.set('checkout', { ...rest, suggestions: JSON.stringify(suggestions) })
}

/** Everything the "Shopping Cart & Checkout" view shows. */
export async function loadCartView(request: Request) {
	const session = await getSession(request)
	const userId = session.get('userId') ?? null
	const [items, draft] = [await getCart(request), readDraft(session)]
	const catalogue = await productsById([...new Set(items.map((i) => i.productId))])
	const lines = items.flatMap((item) => {
		const product = catalogue.find((p) => p.id === item.productId)
		return product
			? [
					{
						key: lineKey(item),
						item,
						product: { id: product.id, name: product.name, priceCents: product.priceCents, engraved: product.engraved },
					},
				]
			: []
	})
	const discount = draft.discountCode ? await findDiscount(draft.discountCode) : null
	const options = shippingOptions(draft.country)
	const method = options.some((o) => o.method === draft.shippingMethod) ? draft.shippingMethod : (options[0]?.method ?? DEFAULT_METHOD)
	const totals = orderTotals(items, catalogue, { country: draft.country, method }, discount)
	const codes = userId ? await listCodes(userId) : []
	return {
		signedIn: Boolean(userId),
		lines,
		draft: { ...draft, shippingMethod: method },
		discount,
		totals:
			'error' in totals
				? null
				: {
						subtotalCents: totals.subtotalCents,
						discountCents: totals.discountCents,
						shippingCents: totals.shippingCents,
						totalCents: totals.totalCents,
					},
		noShipping: options.length === 0 ? NO_SHIPPING : null,
		codes: codes.map((c) => ({
			value: `${c.id}:${c.pin ?? 'self'}`,
			label: `${c.pin ? `Sticker ${c.pin}` : `QR code #${c.id}`}${c.profileName ? ` · ${c.profileName}` : ''}${c.isActive ? '' : ' (inactive)'}`,
		})),
	}
}
export type CartView = Awaited<ReturnType<typeof loadCartView>>

export type CartActionResult =
	| { ok: true; redirectTo: string; toast?: { type: 'success' | 'message'; title: string; description: string }; cookie: string | null }
	| {
			ok: false
			status: number
			toast: { title: string; description: string }
			fieldErrors?: Record<string, string[]>
			cookie: string | null
	  }

const checked = (v: FormDataEntryValue | null) => v === 'on' || v === 'true'

/** Every cart and checkout action: add, quantities, discount, shipping, address search, and placing the order. */
export async function cartAction(request: Request, formData: FormData, returnTo: string): Promise<CartActionResult> {
	const session = await getSession(request)
	const userId = session.get('userId') ?? null
	const draft = readDraft(session)
	for (const field of DRAFT_FIELDS) {
		const value = formData.get(field)
		if (typeof value === 'string') draft[field] = value.trim()
	}
	if (!shippingOptions(draft.country).some((o) => o.method === draft.shippingMethod))
		draft.shippingMethod = shippingOptions(draft.country)[0]?.method ?? DEFAULT_METHOD
	draft.autofilled = ''
	const [intent = '', arg = ''] = String(formData.get('intent') ?? '').split(':')
	let items = await getCart(request)
	let toast: Extract<CartActionResult, { ok: true }>['toast']

	const done = async (changedItems = false) => {
		writeDraft(session, draft)
		// A guest's cart lives in this same session object, so one commit saves both.
		if (changedItems) {
			if (userId) await saveCart(request, items)
			else session.set('cart', items)
		}
		return { ok: true as const, redirectTo: returnTo, toast, cookie: await sessionStorage.commitSession(session) }
	}
	const fail = async (title: string, description: string, fieldErrors?: Record<string, string[]>, status = 400) => {
		writeDraft(session, draft)
		return { ok: false as const, status, toast: { title, description }, fieldErrors, cookie: await sessionStorage.commitSession(session) }
	}

	switch (intent) {
		case 'add': {
			const parsed = CartItemSchema.safeParse({
				...Object.fromEntries(formData),
				addSticker: checked(formData.get('addSticker')),
				transparentBackground: checked(formData.get('transparentBackground')),
			})
			if (!parsed.success) return fail('Could Not Add', parsed.error.issues[0]!.message, fieldErrorsOf(parsed.error.issues))
			const [product] = await productsById([parsed.data.productId])
			if (!product?.inShop) return fail('Could Not Add', 'This product is not available.')
			const problem = lineProblem(parsed.data, product)
			if (problem) return fail('Could Not Add', problem.message, { [problem.field]: [problem.message] })
			items = addToCart(items, parsed.data)
			toast = { type: 'success', ...ORDER_MESSAGES.added(product.name) }
			return done(true)
		}
		case 'increase':
		case 'decrease': {
			const line = items.find((i) => lineKey(i) === arg)
			if (line) items = setLineQuantity(items, arg, line.quantity + (intent === 'increase' ? 1 : -1))
			return done(true)
		}
		case 'remove':
			items = removeLine(items, arg)
			return done(true)
		case 'apply-discount': {
			const parsed = DiscountCodeSchema.safeParse({ code: formData.get('discountInput') })
			if (!parsed.success)
				return fail('Discount Code', parsed.error.issues[0]!.message, { discountInput: [parsed.error.issues[0]!.message] })
			const discount = await findDiscount(parsed.data.code)
			if (!discount) return fail('Discount Code', CHECKOUT_MESSAGES.invalidDiscount, { discountInput: [CHECKOUT_MESSAGES.invalidDiscount] })
			draft.discountCode = discount.code
			toast = { type: 'success', title: 'Discount Applied!', description: discount.description }
			return done()
		}
		case 'remove-discount':
			draft.discountCode = ''
			toast = { type: 'message', ...CHECKOUT_MESSAGES.discountRemoved }
			return done()
		case 'update-shipping':
			return done()
		case 'search-address': {
			if (draft.addressQuery.length < 3)
				return fail('Address Search', 'Type at least 3 characters to search for an address.', {
					addressQuery: ['Type at least 3 characters to search for an address.'],
				})
			draft.suggestions = await searchAddresses(draft.addressQuery)
			return done()
		}
		case 'use-suggestion': {
			const suggestion = draft.suggestions[Number(arg)]
			if (suggestion) {
				const filled = addressFromSuggestion(suggestion)
				draft.address1 = filled.address1
				draft.city = filled.city ?? draft.city
				draft.state = filled.state ?? draft.state
				draft.postalCode = filled.postalCode ?? draft.postalCode
				draft.country = countryCode(filled.country) ?? draft.country
				draft.suggestions = []
				draft.autofilled = '1'
			}
			return done()
		}
		case 'checkout':
			return placeOrder()
		default:
			return fail('Cart', 'Unknown cart action.')
	}

	async function placeOrder(): Promise<CartActionResult> {
		if (!userId) return { ok: true, redirectTo: `/login?${new URLSearchParams({ redirectTo: returnTo })}`, cookie: await commit() }
		const submission = parseWithZod(formData, { schema: CheckoutSchema })
		const { cannotCheckout } = CHECKOUT_MESSAGES
		if (submission.status !== 'success') {
			const errors = submission.reply().error ?? {}
			// Everything missing is marked at once: the QR code and the address fields together.
			if (errors.selectedQrCodeId) return fail(cannotCheckout.title, cannotCheckout.description, errors as Record<string, string[]>)
			const addressOnly = Object.keys(errors).every((k) =>
				['name', 'address1', 'address2', 'city', 'state', 'postalCode', 'country'].includes(k),
			)
			return addressOnly
				? fail(CHECKOUT_MESSAGES.addressRequired.title, CHECKOUT_MESSAGES.addressRequired.description, errors as Record<string, string[]>)
				: fail(
						CHECKOUT_MESSAGES.checkoutFailed,
						Object.values(errors).flat()[0] ?? CHECKOUT_MESSAGES.checkoutFailedFallback,
						errors as Record<string, string[]>,
					)
		}
		const { shippingMethod, selectedQrCodeId, discountCode: _ignored, ...address } = submission.value
		let result
		try {
			result = await createShopOrder(userId, {
				items,
				address,
				shippingMethod,
				selectedQrCodeId,
				discountCode: draft.discountCode || null,
				idempotencyKey: String(formData.get('checkoutKey') ?? '') || draft.key,
			})
		} catch (error) {
			if (!(error instanceof DomainError)) throw error
			return fail(
				error.message === cannotCheckout.description ? cannotCheckout.title : CHECKOUT_MESSAGES.checkoutFailed,
				error.message,
				undefined,
				error.status,
			)
		}
		// The order emptied the cart; the next checkout starts from a fresh form (and a fresh key).
		session.unset('checkout')
		return { ok: true, redirectTo: checkoutUrl(result.order), cookie: await sessionStorage.commitSession(session) }
	}

	async function commit() {
		writeDraft(session, draft)
		return sessionStorage.commitSession(session)
	}
}

function fieldErrorsOf(issues: Array<{ path: PropertyKey[]; message: string }>) {
	const errors: Record<string, string[]> = {}
	for (const issue of issues) (errors[String(issue.path[0] ?? 'form')] ??= []).push(issue.message)
	return errors
}
