import { createContext, createCookieSessionStorage, redirect, type RouterContextProvider } from 'react-router'
import { env, isProduction } from './env.server.ts'
import { combineHeaders } from './http.ts'
import { ToastSchema, type Toast, type ToastInput } from './toast.ts'

const toastSessionStorage = createCookieSessionStorage({
	cookie: {
		name: 'hmh_toast',
		sameSite: 'lax',
		path: '/',
		httpOnly: true,
		secrets: env.sessionSecrets,
		secure: isProduction && env.PUBLIC_URL.startsWith('https:'),
	},
})

export async function createToastHeaders(toastInput: ToastInput) {
	const session = await toastSessionStorage.getSession()
	session.flash('toast', ToastSchema.parse(toastInput))
	return new Headers({ 'set-cookie': await toastSessionStorage.commitSession(session) })
}

export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
	return redirect(url, { ...init, headers: combineHeaders(init?.headers, await createToastHeaders(toast)) })
}

/** Reads and clears the flash toast; the headers must go out with the response. */
export async function getToast(request: Request) {
	const session = await toastSessionStorage.getSession(request.headers.get('cookie'))
	const result = ToastSchema.safeParse(session.get('toast'))
	const toast = result.success ? result.data : null
	return {
		toast,
		headers: toast ? new Headers({ 'set-cookie': await toastSessionStorage.destroySession(session) }) : null,
	}
}

/** A toast raised while rendering the same request (a failed form post without JavaScript). */
export const requestToastContext = createContext<Toast | null>(null)

/**
 * For an action that answers without redirecting: a document request renders the toast at once;
 * a JavaScript (single-fetch) request gets it through the flash cookie on the revalidation that follows.
 */
export async function actionToast(request: Request, context: Readonly<RouterContextProvider>, input: ToastInput) {
	const toast = ToastSchema.parse(input)
	if (new URL(request.url).pathname.endsWith('.data')) return createToastHeaders(toast)
	context.set(requestToastContext, toast)
	return new Headers()
}
