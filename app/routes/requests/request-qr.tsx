import { DomainError } from '#app/utils/errors.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { countryNames } from '#app/domain/requests/countries.ts'
import { submitQrRequest } from '#app/domain/requests/requests.server.ts'
import { QrRequestSchema, REQUEST_FAILED, REQUEST_RECEIVED } from '#app/domain/requests/schemas.ts'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { getUser } from '#app/middleware/user.server.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/request-qr'
import { receiptHeaders } from './receipt.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { log } from '#app/utils/log.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

const REQUEST_REFUSED = 'Request Failed'

const QrRequestForm = lazyComponent('qr-request-form', () => import('./request-qr-form.tsx').then((module) => module.QrRequestForm))

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await getUser({ request, context })
	const fullName = [user?.firstName, user?.lastName].filter(Boolean).join(' ')
	return { defaults: { fullName, email: user?.email ?? '' }, countries: countryNames() }
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: QrRequestSchema })
	if (submission.status !== 'success') {
		const first = Object.values(submission.error ?? {})
			.flat()
			.find(Boolean)
		const toast = { type: 'error', title: REQUEST_REFUSED, description: first ?? REQUEST_FAILED } as const
		return data({ result: submission.reply() }, { status: 400, headers: await actionToast(request, context, toast) })
	}
	let receipt
	try {
		await limitPageAttempt('qr-request', request, context)
		const user = await getUser({ request, context })
		receipt = await submitQrRequest(submission.value, user?.id ?? null).catch((error: unknown) => {
			// Keep what the person typed and let them try again.
			log.error({ err: error }, 'free code request not stored')
			throw new DomainError(503, REQUEST_FAILED)
		})
	} catch (error) {
		return replyError({ request, context }, submission, error, { toast: REQUEST_REFUSED })
	}
	return redirectWithToast(
		'/request-qr/sent',
		{ type: 'success', title: 'Request Submitted!', description: REQUEST_RECEIVED },
		{ headers: await receiptHeaders(receipt) },
	)
}

export default function RequestQr({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<PublicShell
			title="Request a Free QR Code"
			width="max-w-2xl"
			intro="Up to 10 free emergency medical QR codes per request, mailed within 5-7 business days. You create an account when you activate your code."
		>
			<div className={cardClass('p-6')}>
				<QrRequestForm lastResult={actionData?.result} defaults={loaderData.defaults} countries={loaderData.countries} />
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () =>
	pageMeta('Request a Free QR Code', { description: 'Request free emergency medical QR codes by mail, up to 10 per request.' })
