import { useRef, useState } from 'react'
import type { CartView } from '#app/features/cart/checkout.server.ts'
import { addressFromSuggestion, type AddressSuggestion } from '#app/domain/shop/shipping.ts'
import { COUNTRIES, countryCode, estimateLabel, NO_SHIPPING, shippingOptions } from '#app/domain/shop/shipping.ts'
import { AddressFieldset } from '#app/ui/address-fieldset.tsx'
import { ErrorList, Field, StatusButton } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { AddressSearch } from './address-search.tsx'

const AUTOFILL_BADGE_MS = 3000
type Errors = Record<string, string[]> | undefined
type AddressField = 'address1' | 'address2' | 'city' | 'state' | 'postalCode'

/** Shipping information: the address (typed or found by search), the country and the shipping method. */
export function ShippingFields({ view, errors }: { view: CartView; errors: Errors }) {
	const hydrated = useHydrated()
	const draft = view.draft
	const [country, setCountry] = useState(draft.country)
	const [autofilled, setAutofilled] = useState(false)
	const fields = useRef<HTMLFieldSetElement>(null)
	const options = shippingOptions(country)
	const fill = (suggestion: AddressSuggestion) => {
		const found = addressFromSuggestion(suggestion)
		const set = (name: string, value: string | undefined) => {
			const input = fields.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)
			if (input && value !== undefined) input.value = value
		}
		set('address1', found.address1)
		set('city', found.city)
		set('state', found.state)
		set('postalCode', found.postalCode)
		const code = countryCode(found.country)
		if (code) setCountry(code)
		setAutofilled(true)
		setTimeout(() => setAutofilled(false), AUTOFILL_BADGE_MS)
	}
	const field = (name: AddressField, label: string, maxLength: number, required = false) => ({
		label,
		errors: errors?.[name],
		inputProps: { name, defaultValue: draft[name], maxLength, ...(required && { 'aria-required': true }) },
	})
	return (
		<AddressFieldset
			fieldsetRef={fields}
			legend="Shipping information"
			street={field('address1', 'Address', 200, true)}
			line2={field('address2', 'Address line 2 (optional)', 200)}
			city={field('city', 'City', 100, true)}
			state={field('state', 'State (optional)', 100)}
			postalCode={field('postalCode', 'Postal code', 20, true)}
			country={{
				label: 'Country',
				errors: errors?.country,
				selectProps: { name: 'country', value: country, onChange: (e) => setCountry(e.currentTarget.value), autoComplete: 'country' },
				options: COUNTRIES.map((c) => ({ value: c.code, label: `${c.name} (${c.code})` })),
			}}
			after={<ShippingMethods options={options} chosen={draft.shippingMethod} errors={errors?.shippingMethod} />}
		>
			<AddressSearch view={view} errors={errors?.addressQuery} onPick={fill} />
			{autofilled || (!hydrated && draft.autofilled) ? (
				<p
					className={`inline-block rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-900 ${hydrated ? '' : 'badge-timed'}`}
					role="status"
				>
					Auto-filled ✓
				</p>
			) : null}
			<Field
				label="Name"
				errors={errors?.name}
				inputProps={{ name: 'name', defaultValue: draft.name, autoComplete: 'name', 'aria-required': true, maxLength: 100 }}
			/>
		</AddressFieldset>
	)
}

/** The methods offered for the chosen country; without JavaScript, a button asks for them again after a change. */
function ShippingMethods({ options, chosen, errors }: { options: ReturnType<typeof shippingOptions>; chosen: string; errors?: string[] }) {
	const hydrated = useHydrated()
	const checked = options.find((o) => o.method === chosen) ?? options[0]
	return (
		<>
			<fieldset>
				<legend className="mb-1 text-sm font-semibold text-gray-800">Shipping method</legend>
				{options.length ? (
					<div className="space-y-1">
						{options.map((o) => (
							<label key={o.method} className="flex items-center gap-2">
								<input
									type="radio"
									name="shippingMethod"
									value={o.method}
									defaultChecked={o === checked}
									className="size-4 accent-red-700"
								/>
								<span>
									{o.label} ({estimateLabel(o)}): FREE <span className="sr-only">(value {`$${o.cents / 100}`})</span>
								</span>
							</label>
						))}
					</div>
				) : (
					<p className="text-gray-800">{NO_SHIPPING}</p>
				)}
				<ErrorList errors={errors} />
			</fieldset>
			{hydrated ? null : (
				<StatusButton type="submit" name="intent" value="update-shipping" variant="secondary" formNoValidate>
					Update shipping options
				</StatusButton>
			)}
		</>
	)
}

/**
 * Spec 000 §2: the code is upper-cased; once applied, Remove. The spec disables Apply while the field is blank; it stays
 * usable here, and a blank code is answered beside the field ('Please enter a discount code'). While a code is being
 * checked, Apply says so and does nothing more.
 */
export function DiscountBox({ view, errors, pending }: { view: CartView; errors?: string[]; pending: boolean }) {
	const hydrated = useHydrated()
	if (view.discount)
		return (
			<div className="flex items-center justify-between gap-3 rounded-lg bg-green-50 p-3">
				<p>
					<span className="font-semibold">{view.discount.code}</span>: {view.discount.description}
				</p>
				<StatusButton type="submit" name="intent" value="remove-discount" variant="secondary" formNoValidate>
					Remove
				</StatusButton>
			</div>
		)
	return (
		<div className="flex items-end gap-2">
			<Field
				label="Discount code"
				className="flex-1"
				errors={errors}
				inputProps={{
					name: 'discountInput',
					// A code typed before the page's JavaScript ran stays in the field, upper-cased once it runs.
					ref: upperCasedOnMount,
					autoCapitalize: 'characters',
					maxLength: 40,
					className: 'uppercase',
					onChange: (e) => upperCased(e.currentTarget),
					onKeyDown: (e) => {
						if (e.key !== 'Enter' || !hydrated) return
						e.preventDefault()
						e.currentTarget.form?.querySelector<HTMLButtonElement>('button[value="apply-discount"]')?.click()
					},
				}}
			/>
			<StatusButton
				type="submit"
				name="intent"
				value="apply-discount"
				variant="secondary"
				pending={pending}
				pendingLabel="Applying..."
				formNoValidate
			>
				Apply
			</StatusButton>
		</div>
	)
}

const upperCasedOnMount = (input: HTMLInputElement | null) => {
	if (input) upperCased(input)
}

/** The field's text upper-cased in place, the caret where it was. */
function upperCased(input: HTMLInputElement) {
	const upper = input.value.toUpperCase()
	if (upper !== input.value) {
		const { selectionStart, selectionEnd } = input
		input.value = upper
		input.setSelectionRange(selectionStart, selectionEnd)
	}
}
