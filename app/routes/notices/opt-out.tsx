import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import { optOutOfNotices } from '#app/domain/admin/visitors.server.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { StatusButton } from '#app/ui/forms.tsx'
import { readPageForm } from '#app/utils/request.server.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/opt-out'
import { pageMeta } from '#app/utils/meta.ts'

/** The link at the foot of a notice: GET asks, POST stops the notices (a link preview never opts anyone out). */
export function loader({ request }: Route.LoaderArgs) {
	return { token: (new URL(request.url).searchParams.get('token') ?? '').slice(0, 300) }
}

/** The signed token from the notice's link (the loader puts it in the form); a missing one is simply not valid. */
const OptOutSchema = z.object({ token: z.string().default('') })

export async function action({ request }: Route.ActionArgs) {
	const submission = parseWithZod(await readPageForm(request), { schema: OptOutSchema })
	const token = submission.status === 'success' ? submission.value.token.slice(0, 300) : ''
	if (!(await optOutOfNotices(token))) return data({ done: false }, { status: 400 })
	return { done: true }
}

export default function NoticesOptOut({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useIsPending()
	if (actionData?.done)
		return (
			<AuthShell title="You will get no more notices" subtitle="Receipts and messages about your own orders still arrive.">
				<p className="text-gray-800">You can close this page.</p>
			</AuthShell>
		)
	return (
		<AuthShell title="Stop notices from Hit Me Helpers" subtitle="Reminders to keep your emergency information current.">
			{actionData && !actionData.done ? (
				<p role="alert" className="mb-4 font-semibold text-red-700">
					This link is not valid. Use the link from the most recent notice.
				</p>
			) : null}
			<Form method="post">
				<input type="hidden" name="token" value={loaderData.token} />
				<StatusButton type="submit" pending={pending} pendingLabel="Saving…" className="w-full">
					Stop These Notices
				</StatusButton>
			</Form>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Stop notices', { noindex: true })
