/** Private: never kept by a shared cache. */
export function adminJson(value: unknown, status = 200) {
	return Response.json(value, { status, headers: { 'cache-control': 'private, no-store' } })
}
