import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { dismissNewOrders } from '#app/domain/admin/orders.server.ts'
import { OrdersSeenSchema } from '#app/domain/admin/schemas.ts'
import { DomainError } from '#app/utils/errors.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { readPageForm, UNREADABLE_FORM } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import type { Route } from './+types/orders-seen'

/** Dismissing the new-order alert remembers, on the server, the newest order the owner has seen. */
async function dismiss(args: Route.ActionArgs) {
	const owner = await requireGrantedOwner(args)
	const submission = parseWithZod(await readPageForm(args.request), { schema: OrdersSeenSchema })
	// Every field has a fallback: nothing typed is refused.
	if (submission.status !== 'success') throw new DomainError(400, UNREADABLE_FORM)
	const { seenAt, redirectTo } = submission.value
	await dismissNewOrders(owner.id, seenAt > new Date() ? new Date() : seenAt)
	return redirect(safeRedirect(redirectTo, '/admin'))
}

// A form's address only: any other method (a GET too) is a 405 naming POST.
const api = resource<Route.ActionArgs>({ POST: dismiss })
export const loader = api.loader
export const action = api.action
