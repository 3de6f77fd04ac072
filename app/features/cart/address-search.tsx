import { useEffect, useRef, useState } from 'react'
import type { AddressSuggestion } from '#app/domain/shop/shipping.ts'
import type { CartView } from '#app/features/cart/checkout.server.ts'
import { Field, StatusButton } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'

const SEARCH_DEBOUNCE_MS = 300

/** With JavaScript, suggestions follow typing (3+ characters, 300 ms); without it, a Search button. */
export function AddressSearch({ view, errors, onPick }: { view: CartView; errors?: string[]; onPick: (s: AddressSuggestion) => void }) {
	const hydrated = useHydrated()
	const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([])
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	useEffect(() => () => clearTimeout(timer.current), [])
	const search = (query: string) => {
		clearTimeout(timer.current)
		if (query.trim().length < 3) return setSuggestions([])
		timer.current = setTimeout(async () => {
			try {
				const response = await fetch('/api/address-suggestions', {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ query }),
				})
				const body = (await response.json()) as { suggestions?: AddressSuggestion[] }
				setSuggestions(body.suggestions?.length ? body.suggestions : [{ display_name: query, address: { road: query } }])
			} catch {
				setSuggestions([{ display_name: query, address: { road: query } }])
			}
		}, SEARCH_DEBOUNCE_MS)
	}
	const shown = hydrated ? suggestions : view.draft.suggestions
	return (
		<div className="space-y-2">
			<Field
				label="Search for your address"
				errors={errors}
				hint="Type at least 3 characters, then pick a suggestion to fill the fields below."
				inputProps={{
					name: 'addressQuery',
					defaultValue: view.draft.addressQuery,
					autoComplete: 'off',
					onChange: (e) => search(e.currentTarget.value),
					onKeyDown: (e) => e.key === 'Enter' && hydrated && e.preventDefault(),
				}}
			/>
			{hydrated ? null : (
				<StatusButton type="submit" name="intent" value="search-address" variant="secondary" formNoValidate>
					Search
				</StatusButton>
			)}
			{shown.length ? (
				<ul aria-label="Address suggestions" className="divide-y divide-gray-200 rounded-md border border-gray-300">
					{shown.map((s, i) => (
						<li key={`${i}-${s.display_name}`}>
							{hydrated ? (
								<button
									type="button"
									className="w-full px-3 py-2 text-left hover:bg-gray-100"
									onClick={() => (onPick(s), setSuggestions([]))}
								>
									{s.display_name}
								</button>
							) : (
								<button
									type="submit"
									name="intent"
									value={`use-suggestion:${i}`}
									className="w-full px-3 py-2 text-left hover:bg-gray-100"
									formNoValidate
								>
									{s.display_name}
								</button>
							)}
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}
