import { readPageForm } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type RouterContextProvider } from 'react-router'
import { changeEmail, deleteAccount, updateName } from '#app/domain/accounts/accounts.server.ts'
import { ChangeEmailSchema, ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { destroyUserSession } from '#app/utils/auth.server.ts'
import { requireDashboardUser } from '#app/middleware/permissions.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { PROFILE_INTENTS } from './intents.ts'

const HERE = '/dashboard/profile'

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
		const changed = await changeEmail(user.id, submission.value.email)
		if (!changed.ok)
			return data({ intent, result: submission.reply({ fieldErrors: { email: [changed.error] } }) }, await updateFailed(changed.error))
		return redirectWithToast(HERE, {
			type: 'success',
			title: 'Email Updated',
			description: `A welcome email has been sent to ${changed.email}.`,
		})
	}

	if (intent === PROFILE_INTENTS.deleteAccount) {
		try {
			await deleteAccount(user.id)
		} catch (error) {
			console.error('account deletion failed', error)
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
