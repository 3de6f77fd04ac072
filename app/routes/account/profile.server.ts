import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { deleteAccount, updateName } from '#app/domain/accounts/accounts.server.ts'
import { cancelEmailChange, requestEmailChange } from '#app/domain/accounts/email-change.server.ts'
import { ChangeEmailSchema, ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { endSessions } from '#app/domain/accounts/sign-ins.server.ts'
import { destroyUserSession } from '#app/utils/auth.server.ts'
import { requireDashboardUser } from '#app/middleware/permissions.server.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { PROFILE_INTENTS } from './intents.ts'
import { log } from '#app/utils/log.server.ts'

const HERE = '/dashboard/profile'

/** What the page and the JSON call say once a link is on its way. */
export const linkSentMessage = (email: string) => `We sent a link to ${email}. Your email changes once you open it.`

export async function profileAction(request: Request, context: Readonly<RouterContextProvider>) {
	const user = await requireDashboardUser({ request, context })
	const formData = await readPageForm(request)
	const intent = String(formData.get('intent') ?? '')
	const updateFailed = async (description: string, status = 400) =>
		({ status, headers: await actionToast(request, context, { type: 'error', title: 'Update Failed', description }) }) as const

	if (intent === PROFILE_INTENTS.updateName) {
		const submission = parseWithZod(formData, { schema: ProfileNameSchema })
		if (submission.status !== 'success')
			return data({ intent, result: submission.reply() }, await updateFailed('Please correct the highlighted fields.'))
		const saved = await updateName(user.id, submission.value)
		if (!saved.ok) throw data('Not found', { status: 404 })
		return redirectWithToast(
			HERE,
			saved.changed
				? { type: 'success', title: 'Profile Updated', description: 'Your name has been saved.' }
				: { type: 'message', title: 'No Changes', description: 'Your name is already up to date.' },
		)
	}

	if (intent === PROFILE_INTENTS.changeEmail) {
		const submission = parseWithZod(formData, { schema: ChangeEmailSchema })
		if (submission.status !== 'success')
			return data(
				{ intent, result: submission.reply() },
				await updateFailed(submission.error?.email?.[0] ?? 'Please enter a valid email address'),
			)
		const refuse = async (message: string, status: number, extra?: HeadersInit) => {
			const failed = await updateFailed(message, status)
			const result = submission.reply({ fieldErrors: { email: [message] } })
			return data({ intent, result }, { status, headers: combineHeaders(failed.headers, extra) })
		}
		const limited = await refusedAttempt('email-change', request, context)
		if (limited) return refuse(TOO_MANY_ATTEMPTS, 429, limited)
		const requested = await requestEmailChange(user.id, submission.value.email)
		if (!requested.ok) return refuse(requested.error, requested.status === 429 ? 429 : 400)
		return redirectWithToast(HERE, { type: 'success', title: 'Check Your Email', description: linkSentMessage(requested.email) })
	}

	if (intent === PROFILE_INTENTS.cancelEmailChange) {
		const cancelled = await cancelEmailChange(user.id)
		return redirectWithToast(
			HERE,
			cancelled
				? {
						type: 'success',
						title: 'Email Change Cancelled',
						description: `Your email stays ${user.email}. The link we sent no longer works.`,
					}
				: { type: 'message', title: 'No Changes', description: 'There was no email change waiting.' },
		)
	}

	if (intent === PROFILE_INTENTS.signOutEverywhere) {
		await endSessions(user.id)
		return redirectWithToast(
			'/auth',
			{
				type: 'success',
				title: 'Signed Out Everywhere',
				description: 'Every session of your account has ended, on every browser and device, this one included.',
			},
			{ headers: { 'set-cookie': await destroyUserSession(request) } },
		)
	}

	if (intent === PROFILE_INTENTS.deleteAccount) {
		try {
			await deleteAccount(user.id)
		} catch (error) {
			log.error({ err: error }, 'account not deleted')
			const headers = await actionToast(request, context, {
				type: 'error',
				title: 'Deletion Failed',
				description: 'Failed to delete account. Please try again.',
			})
			return data({ intent, result: null }, { status: 500, headers })
		}
		return redirectWithToast(
			'/',
			{ type: 'success', title: 'Account Deleted', description: 'Your account and everything in it have been deleted.' },
			{ headers: { 'set-cookie': await destroyUserSession(request) } },
		)
	}
	throw data('Unknown action', { status: 400 })
}
