import { ordersCsv } from '#app/domain/admin/orders.server.ts'
import type { Route } from './+types/orders-csv'

/** Export Orders: a server download, so it works without JavaScript too. */
export async function loader(_args: Route.LoaderArgs) {
	const day = new Date().toISOString().slice(0, 10)
	return new Response(await ordersCsv(), {
		headers: {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename="hmh-orders-${day}.csv"`,
			'cache-control': 'private, no-store',
		},
	})
}
