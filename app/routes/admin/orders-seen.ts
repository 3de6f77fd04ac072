import { dismissNewOrders } from '#app/domain/admin/orders.server.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { redirect } from 'react-router'
import type { Route } from './+types/orders-seen'

/** Dismissing the new-order alert remembers, on the server, the newest order the owner has seen. */
async function dismiss(args: Route.ActionArgs) {
	const owner = await requireGrantedOwner(args)
	const form = await readPageForm(args.request)
	const seenAt = new Date(String(form.get('seenAt') ?? ''))
	await dismissNewOrders(owner.id, Number.isNaN(seenAt.getTime()) || seenAt > new Date() ? new Date() : seenAt)
	return redirect(safeRedirect(form.get('redirectTo'), '/admin'))
}

// A form's address only: any other method (a GET too) is a 405 naming POST.
const api = resource<Route.ActionArgs>({ POST: dismiss })
export const loader = api.loader
export const action = api.action
