import { combineHeaders } from '#app/utils/http.ts'
import { TOO_MANY_ATTEMPTS } from '#app/utils/rate-limit.server.ts'
import { readPageForm, refusedAttempt } from '#app/utils/request.server.ts'
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

const QrRequestForm = lazyComponent('qr-request-form', () => import('./request-qr-form.tsx').then((module) => module.QrRequestForm))

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await getUser({ request, context })
	const fullName = [user?.firstName, user?.lastName].filter(Boolean).join(' ')
	return { defaults: { fullName, email: user?.email ?? '' }, countries: countryNames() }
}

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: QrRequestSchema })
	const fail = async (message: string, status: number, result = submission.reply(), extra?: HeadersInit) => {
		const headers = await actionToast(request, context, { type: 'error', title: 'Request Failed', description: message })
		return data({ result }, { status, headers: combineHeaders(headers, extra) })
	}
	if (submission.status !== 'success') {
		const first = Object.values(submission.error ?? {})
			.flat()
			.find(Boolean)
		return fail(first ?? REQUEST_FAILED, 400)
	}
	const limited = await refusedAttempt('qr-request', request, context)
	if (limited) return fail(TOO_MANY_ATTEMPTS, 429, submission.reply({ formErrors: [TOO_MANY_ATTEMPTS] }), limited)
	const user = await getUser({ request, context })
	let receipt
	try {
		receipt = await submitQrRequest(submission.value, user?.id ?? null)
	} catch (error) {
		// Keep what the person typed and let them try again.
		log.error({ err: error }, 'free code request not stored')
		return fail(REQUEST_FAILED, 503, submission.reply({ formErrors: [REQUEST_FAILED] }))
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

export const meta: Route.MetaFunction = () => [
	{ title: 'Request a Free QR Code · Hit Me Helpers' },
	{ name: 'description', content: 'Request free emergency medical QR codes by mail, up to 10 per request.' },
]
