import { parseWithZod } from '@conform-to/zod/v4'
import { notifyRecentVisitors } from '#app/domain/admin/visitors.server.ts'
import { NotifyVisitorsSchema } from '#app/domain/admin/schemas.ts'
import { DomainError } from '#app/utils/errors.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { readPageForm, UNREADABLE_FORM } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/notify-visitors'
import { log } from '#app/utils/log.server.ts'

/** The header's Notify Recent Visitors, as a plain form: e-mails go out, the page says how many. */
async function notify({ request }: Route.ActionArgs) {
	const submission = parseWithZod(await readPageForm(request), { schema: NotifyVisitorsSchema })
	// Every field has a fallback: nothing typed is refused.
	if (submission.status !== 'success') throw new DomainError(400, UNREADABLE_FORM)
	const back = safeRedirect(submission.value.redirectTo, '/admin')
	try {
		const { successCount, totalUsers } = await notifyRecentVisitors(submission.value.range)
		return redirectWithToast(back, {
			type: 'success',
			title: 'Notifications Sent',
			description: `${successCount} of ${totalUsers} recent ${totalUsers === 1 ? 'visitor' : 'visitors'} will get a notice (at most one a day each).`,
		})
	} catch (error) {
		log.error({ err: error }, 'visitors not notified')
		return redirectWithToast(back, {
			type: 'error',
			title: 'Notification Failed',
			description: 'Failed to send visitor notifications. Please try again.',
		})
	}
}

// A form's address only: any other method (a GET too) is a 405 naming POST.
const api = resource<Route.ActionArgs>({ POST: notify })
export const loader = api.loader
export const action = api.action
