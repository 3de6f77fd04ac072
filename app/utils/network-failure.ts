import { data } from 'react-router'
import type { ToastInput } from './toast.ts'

export const CLIENT_TOAST_EVENT = 'hmh-toast'

/** A toast raised in the browser, for failures the server never heard of. */
export function showClientToast(toast: ToastInput) {
	window.dispatchEvent(new CustomEvent<ToastInput>(CLIENT_TOAST_EVENT, { detail: toast }))
}

/** fetch's own failure (offline, connection dropped) is a TypeError in every browser; a server's answer never is. */
export function isNetworkFailure(error: unknown) {
	return error instanceof TypeError && /fetch|network|load failed/i.test(error.message)
}

export type NetworkFailure = { networkFailure: true; message: string }

/**
 * Runs a route's server action from its clientAction. When the server cannot be reached the page stays as it
 * was (with everything typed in it), a toast says what failed, and the 503 status stops loaders revalidating.
 */
export async function serverActionOrToast<T>(serverAction: () => Promise<T>, toast: { title: string; description: string }) {
	try {
		return await serverAction()
	} catch (error) {
		if (!isNetworkFailure(error)) throw error
		showClientToast({ type: 'error', ...toast })
		return data<NetworkFailure>({ networkFailure: true, message: toast.description }, { status: 503 })
	}
}
