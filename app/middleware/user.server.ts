import { createContext, type MiddlewareFunction } from 'react-router'
import { getSignedInUser, type SignedInUser } from '#app/domain/accounts/accounts.server.ts'
import { getSession } from '#app/utils/session.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'

/** What every loader and action of one request asks about the person: read once, and only if asked. */
type CurrentUser = { userId: () => Promise<string | null>; user: () => Promise<SignedInUser | null> }

const currentUserContext = createContext<CurrentUser | null>(null)

function readCurrentUser(args: RequestArgs): CurrentUser {
	let userId: Promise<string | null> | undefined
	let user: Promise<SignedInUser | null> | undefined
	const readUserId = () => (userId ??= getSession(args).then((session) => session.get('userId') ?? null))
	return {
		userId: readUserId,
		user: () => (user ??= readUserId().then((id) => (id ? getSignedInUser(id) : null))),
	}
}

/** Root middleware: the request's session and user, shared by everything that runs for it. */
export const userMiddleware: MiddlewareFunction<Response> = ({ request, context }, next) => {
	context.set(currentUserContext, readCurrentUser({ request, context }))
	return next()
}

function current({ request, context }: RequestArgs) {
	const known = context.get(currentUserContext)
	if (known) return known
	// A loader called on its own (a test, a script) has no middleware before it: read on first use, once.
	const fresh = readCurrentUser({ request, context })
	context.set(currentUserContext, fresh)
	return fresh
}

export function getUserId(args: RequestArgs) {
	return current(args).userId()
}

export function getUser(args: RequestArgs) {
	return current(args).user()
}
