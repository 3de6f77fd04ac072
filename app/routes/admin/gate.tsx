import { Outlet } from 'react-router'
import { requireOwnerMiddleware } from '#app/middleware/owner.server.ts'
import type { Route } from './+types/gate'

/**
 * Every admin page, page action and endpoint sits beneath this route: its middleware runs before any of them. A
 * refusal is shown by the root's boundary (Access Denied, Return to Home, Admin Access).
 */
export const middleware: Route.MiddlewareFunction[] = [requireOwnerMiddleware]

export default function AdminGate() {
	return <Outlet />
}
