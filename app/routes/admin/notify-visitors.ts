import { notifyRecentVisitors } from '#app/domain/admin/visitors.server.ts'
import { TimeRangeSchema } from '#app/domain/admin/time-range.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { resource } from '#app/utils/resource.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/notify-visitors'
import { log } from '#app/utils/log.server.ts'

/** The header's Notify Recent Visitors, as a plain form: e-mails go out, the page says how many. */
async function notify({ request }: Route.ActionArgs) {
	const form = await readPageForm(request)
	const back = safeRedirect(form.get('redirectTo'), '/admin')
	const range = TimeRangeSchema.parse(form.get('range') ?? undefined)
	try {
		const { successCount, totalUsers } = await notifyRecentVisitors(range)
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
