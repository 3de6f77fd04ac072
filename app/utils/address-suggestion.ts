/** One answer of the address search service (Nominatim's shape), as the browser and the server both see it. */
export type AddressSuggestion = {
	display_name: string
	address: Record<string, string | undefined>
}
