import { z } from 'zod'
import { ADDRESS_QUERY_MIN, searchAddresses } from '#app/adapters/address-search.server.ts'
import { readBody, validationError } from '#app/utils/api.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/address-suggestions'

const QuerySchema = z.object({
	query: z
		.string({ error: `Type at least ${ADDRESS_QUERY_MIN} characters to search for an address.` })
		.trim()
		.min(ADDRESS_QUERY_MIN, `Type at least ${ADDRESS_QUERY_MIN} characters to search for an address.`)
		.max(200, 'The address search is limited to 200 characters.'),
})

/** POST { query }: { suggestions }; with no service, or when it fails, the one suggestion built from the text. */
const api = resource<Route.ActionArgs>({
	POST: async ({ request }) => {
		const parsed = QuerySchema.safeParse(await readBody(request))
		if (!parsed.success) return validationError(parsed.error.issues)
		return Response.json({ suggestions: await searchAddresses(parsed.data.query) })
	},
})

export const loader = api.loader
export const action = api.action
