import { randomUUID } from 'node:crypto'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { combineHeaders, safeRedirect } from '#app/utils/http.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { ToastInput } from '#app/utils/toast.ts'
import { searchAddresses } from '#app/adapters/address-search.server.ts'
import { listCodes } from '#app/domain/qr/manage.server.ts'
import { getSession, sessionStorage, type AppSession } from '#app/utils/session.server.ts'
import { addToCart, CartItemSchema, lineKey, removeLine, setLineQuantity, type CartItem } from '#app/domain/shop/cart.ts'
import { checkCartLine, productsById } from '#app/domain/shop/cart.server.ts'
import { getCart, saveCart } from './cart-session.server.ts'
import { splitIntent } from './cart-intent.ts'
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
export async function loadCartView(args: RequestArgs) {
	const session = await getSession(args)
	const userId = session.get('userId') ?? null
	const [items, draft] = [await getCart(args), readDraft(session)]
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

const SEARCH_TOO_SHORT = 'Type at least 3 characters to search for an address.'
export const UNKNOWN_CART_ACTION = 'Unknown cart action.'
const ADDRESS_FIELDS: readonly string[] = ['name', 'address1', 'address2', 'city', 'state', 'postalCode', 'country']

/** A checkbox as a form or a script sends it. */
const checkbox = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean())
/** The cart line (or the suggestion) a button names after its intent: `remove:<line key>`. */
const line = z.string().max(500).default('')

/** Every cart and checkout form in one union; placing an order asks for the address and code only of a signed-in person. */
function cartActionSchema(signedIn: boolean) {
	return z.preprocess(
		splitIntent,
		z.discriminatedUnion(
			'intent',
			[
				CartItemSchema.extend({ intent: z.literal('add'), addSticker: checkbox, transparentBackground: checkbox }),
				z.object({ intent: z.literal('increase'), line }),
				z.object({ intent: z.literal('decrease'), line }),
				z.object({ intent: z.literal('remove'), line }),
				z.object({ intent: z.literal('apply-discount'), discountInput: DiscountCodeSchema.shape.code }),
				z.object({ intent: z.literal('remove-discount') }),
				z.object({ intent: z.literal('update-shipping') }),
				z.object({
					intent: z.literal('search-address'),
					addressQuery: z.string({ error: SEARCH_TOO_SHORT }).trim().min(3, SEARCH_TOO_SHORT),
				}),
				z.object({ intent: z.literal('use-suggestion'), line }),
				signedIn
					? CheckoutSchema.extend({ intent: z.literal('checkout'), checkoutKey: z.string().optional() })
					: z.object({ intent: z.literal('checkout'), signIn: z.literal(true).default(true) }),
			],
			{ error: UNKNOWN_CART_ACTION },
		),
	)
}

type Args = RequestArgs

/**
 * Every cart and checkout action: add, quantities, discount, shipping, address search, and placing the order. What
 * was typed in the checkout form is kept in the session draft whatever the outcome, so nothing is lost without
 * JavaScript; a success redirects back (or to the order), a refusal answers `{ result }` with a toast.
 */
export async function cartAction(args: Args, formData: FormData, where: { returnTo: string; fromForm?: boolean }) {
	const { request, context } = args
	const session = await getSession(args)
	const userId = session.get('userId') ?? null
	const submission = parseWithZod(formData, { schema: cartActionSchema(Boolean(userId)) })
	// The form's own `returnTo` (a relative path only) when the page lets it choose.
	const returnTo = where.fromForm ? safeRedirect(submission.payload.returnTo as string | undefined, where.returnTo) : where.returnTo
	const draft = readDraft(session)
	for (const field of DRAFT_FIELDS) {
		const value = submission.payload[field]
		if (typeof value === 'string') draft[field] = value.trim()
	}
	if (!shippingOptions(draft.country).some((o) => o.method === draft.shippingMethod))
		draft.shippingMethod = shippingOptions(draft.country)[0]?.method ?? DEFAULT_METHOD
	draft.autofilled = ''
	const saved = async (items?: CartItem[]) => {
		writeDraft(session, draft)
		// A guest's cart lives in this same session object, so one commit saves both.
		if (items) {
			if (userId) await saveCart({ request, context }, items)
			else session.set('cart', items)
		}
		return { 'set-cookie': await sessionStorage.commitSession(session) }
	}
	const back = async (toast?: ToastInput, items?: CartItem[]) =>
		toast ? redirectWithToast(returnTo, toast, { headers: await saved(items) }) : redirect(returnTo, { headers: await saved(items) })

	if (submission.status !== 'success') {
		const headers = combineHeaders(await saved(), await actionToast(request, context, refusedFormToast(submission)))
		return data({ result: submission.reply() }, { status: 400, headers })
	}
	const action = submission.value
	const items = await getCart({ request, context })
	switch (action.intent) {
		case 'add': {
			const { intent: _intent, ...item } = action
			try {
				const name = await checkCartLine(item, 'shop')
				return back({ type: 'success', ...ORDER_MESSAGES.added(name) }, addToCart(items, item))
			} catch (error) {
				return replyError(args, submission, error, { toast: 'Could Not Add', headers: await saved() })
			}
		}
		case 'increase':
		case 'decrease': {
			const found = items.find((i) => lineKey(i) === action.line)
			const quantity = (found?.quantity ?? 0) + (action.intent === 'increase' ? 1 : -1)
			return back(undefined, found ? setLineQuantity(items, action.line, quantity) : items)
		}
		case 'remove':
			return back(undefined, removeLine(items, action.line))
		case 'apply-discount': {
			const discount = await findDiscount(action.discountInput)
			if (!discount) {
				const refusal = new DomainError(400, CHECKOUT_MESSAGES.invalidDiscount, 'discountInput')
				return replyError(args, submission, refusal, { toast: 'Discount Code', headers: await saved() })
			}
			draft.discountCode = discount.code
			return back({ type: 'success', title: 'Discount Applied!', description: discount.description })
		}
		case 'remove-discount':
			draft.discountCode = ''
			return back({ type: 'message', ...CHECKOUT_MESSAGES.discountRemoved })
		case 'update-shipping':
			return back()
		case 'search-address':
			draft.suggestions = await searchAddresses(action.addressQuery)
			return back()
		case 'use-suggestion': {
			const suggestion = draft.suggestions[Number(action.line)]
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
			return back()
		}
		case 'checkout': {
			if ('signIn' in action || !userId)
				return redirect(`/login?${new URLSearchParams({ redirectTo: returnTo })}`, { headers: await saved() })
			const { intent: _intent, checkoutKey, shippingMethod, selectedQrCodeId, discountCode: _ignored, ...address } = action
			let placed
			try {
				placed = await createShopOrder(userId, {
					items,
					address,
					shippingMethod,
					selectedQrCodeId,
					discountCode: draft.discountCode || null,
					idempotencyKey: checkoutKey || draft.key,
				})
			} catch (error) {
				const { cannotCheckout, checkoutFailed } = CHECKOUT_MESSAGES
				const toast = error instanceof Error && error.message === cannotCheckout.description ? cannotCheckout.title : checkoutFailed
				return replyError(args, submission, error, { toast, headers: await saved() })
			}
			// The order emptied the cart; the next checkout starts from a fresh form (and a fresh key).
			session.unset('checkout')
			return redirect(checkoutUrl(placed.order), { headers: { 'set-cookie': await sessionStorage.commitSession(session) } })
		}
		default: {
			const unknown: never = action
			return unknown
		}
	}
}

/** The toast of a form the schema refused, worded for the button that sent it (spec 000's titles for the checkout). */
function refusedFormToast(submission: { payload: Record<string, unknown>; error?: Record<string, string[] | null> | null }): ToastInput {
	const errors = Object.fromEntries(Object.entries(submission.error ?? {}).filter(([, messages]) => messages?.length)) as Record<
		string,
		string[]
	>
	const first = Object.values(errors).flat()[0] ?? UNKNOWN_CART_ACTION
	const sent = typeof submission.payload.intent === 'string' ? submission.payload.intent.split(':')[0] : ''
	if (errors.intent) return { type: 'error', title: 'Cart', description: UNKNOWN_CART_ACTION }
	switch (sent) {
		case 'apply-discount':
			return { type: 'error', title: 'Discount Code', description: first }
		case 'search-address':
			return { type: 'error', title: 'Address Search', description: first }
		case 'checkout': {
			const { cannotCheckout, addressRequired, checkoutFailed } = CHECKOUT_MESSAGES
			// Everything missing is marked at once: the QR code and the address fields together.
			if (errors.selectedQrCodeId) return { type: 'error', ...cannotCheckout }
			if (Object.keys(errors).every((field) => ADDRESS_FIELDS.includes(field))) return { type: 'error', ...addressRequired }
			return { type: 'error', title: checkoutFailed, description: first }
		}
		default:
			return { type: 'error', title: 'Could Not Add', description: first }
	}
}
