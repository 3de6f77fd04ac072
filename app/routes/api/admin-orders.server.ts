import { DomainError } from '#app/utils/errors.ts'
import { jsonRefusal } from '#app/utils/api.server.ts'

/** Private: never kept by a shared cache. */
export function adminJson(value: unknown, status = 200) {
	return Response.json(value, { status, headers: { 'cache-control': 'private, no-store' } })
}

/** A domain refusal as the spec's JSON error (`{ message }` with its status); anything else is a real fault. */
export async function adminCall(run: () => Promise<Response>) {
	try {
		return await run()
	} catch (error) {
		if (error instanceof DomainError) return jsonRefusal(error)
		throw error
	}
}
