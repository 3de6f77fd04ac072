import { readPageForm, limitPageAttempt } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { deleteAccount, updateName } from '#app/domain/accounts/accounts.server.ts'
import { cancelEmailChange, requestEmailChange } from '#app/domain/accounts/email-change.server.ts'
import { ChangeEmailSchema, ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { endSessions } from '#app/domain/accounts/sign-ins.server.ts'
import { destroyUserSession } from '#app/utils/auth.server.ts'
import { requireDashboardUser } from '#app/middleware/permissions.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { PROFILE_INTENTS } from './intents.ts'
import { log } from '#app/utils/log.server.ts'

const HERE = '/dashboard/profile'

/** What the page and the JSON call say once a link is on its way. */
export const linkSentMessage = (email: string) => `We sent a link to ${email}. Your email changes once you open it.`

/** The Profile tab's forms, one per intent. */
const ProfileActionSchema = z.discriminatedUnion(
	'intent',
	[
		ProfileNameSchema.extend({ intent: z.literal(PROFILE_INTENTS.updateName) }),
		ChangeEmailSchema.extend({ intent: z.literal(PROFILE_INTENTS.changeEmail) }),
		z.object({ intent: z.literal(PROFILE_INTENTS.cancelEmailChange) }),
		z.object({ intent: z.literal(PROFILE_INTENTS.signOutEverywhere) }),
		z.object({ intent: z.literal(PROFILE_INTENTS.deleteAccount) }),
	],
	{ error: UNKNOWN_ACTION },
)

/** The toast's words for a form that did not validate: the e-mail form names its problem, the name form points at it. */
function invalidDescription(intent: string, error: Record<string, string[] | null> | null | undefined) {
	if (error?.intent?.[0]) return error.intent[0]
	if (intent === PROFILE_INTENTS.changeEmail) return error?.email?.[0] ?? 'Please enter a valid email address'
	return 'Please correct the highlighted fields.'
}

export async function profileAction(request: Request, context: Readonly<RouterContextProvider>) {
	const user = await requireDashboardUser({ request, context })
	const submission = parseWithZod(await readPageForm(request), { schema: ProfileActionSchema })
	if (submission.status !== 'success') {
		// Which form it came from, so the page shows the errors beside it (a missing or unknown intent is no form's).
		const sent = submission.payload.intent
		const intent = typeof sent === 'string' ? sent.slice(0, 40) : ''
		const description = invalidDescription(intent, submission.error)
		const headers = await actionToast(request, context, { type: 'error', title: 'Update Failed', description })
		return data({ intent, result: submission.reply() }, { status: 400, headers })
	}
	const action = submission.value
	switch (action.intent) {
		case PROFILE_INTENTS.updateName: {
			let saved: Awaited<ReturnType<typeof updateName>>
			try {
				saved = await updateName(user.id, { firstName: action.firstName, lastName: action.lastName })
			} catch (error) {
				return replyError({ request, context }, submission, error, { toast: 'Update Failed', extra: { intent: action.intent } })
			}
			return redirectWithToast(
				HERE,
				saved.changed
					? { type: 'success', title: 'Profile Updated', description: 'Your name has been saved.' }
					: { type: 'message', title: 'No Changes', description: 'Your name is already up to date.' },
			)
		}

		case PROFILE_INTENTS.changeEmail: {
			let requested: Awaited<ReturnType<typeof requestEmailChange>>
			try {
				await limitPageAttempt('email-change', request, context)
				requested = await requestEmailChange(user.id, action.email)
			} catch (error) {
				return replyError({ request, context }, submission, error, {
					toast: 'Update Failed',
					extra: { intent: action.intent },
					field: 'email',
					// The form has always answered a taken address (and a vanished account) as a 400 beside the field.
					statuses: { 404: 400, 409: 400 },
				})
			}
			return redirectWithToast(HERE, { type: 'success', title: 'Check Your Email', description: linkSentMessage(requested.email) })
		}

		case PROFILE_INTENTS.cancelEmailChange: {
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

		case PROFILE_INTENTS.signOutEverywhere: {
			await endSessions(user.id)
			return redirectWithToast(
				'/auth',
				{
					type: 'success',
					title: 'Signed Out Everywhere',
					description: 'Every session of your account has ended, on every browser and device, this one included.',
				},
				{ headers: { 'set-cookie': await destroyUserSession({ request, context }) } },
			)
		}

		case PROFILE_INTENTS.deleteAccount: {
			try {
				await deleteAccount(user.id)
			} catch (error) {
				log.error({ err: error }, 'account not deleted')
				const headers = await actionToast(request, context, {
					type: 'error',
					title: 'Deletion Failed',
					description: 'Failed to delete account. Please try again.',
				})
				return data({ intent: action.intent, result: null }, { status: 500, headers })
			}
			return redirectWithToast(
				'/',
				{ type: 'success', title: 'Account Deleted', description: 'Your account and everything in it have been deleted.' },
				{ headers: { 'set-cookie': await destroyUserSession({ request, context }) } },
			)
		}
		default: {
			const unknown: never = action
			return unknown
		}
	}
}
