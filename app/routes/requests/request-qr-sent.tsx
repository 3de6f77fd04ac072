import { Link, redirect } from 'react-router'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { getUser } from '#app/middleware/user.server.ts'
import type { Route } from './+types/request-qr-sent'
import { readReceipt } from './receipt.server.ts'
import { cardClass, CheckList } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	const [receipt, user] = await Promise.all([readReceipt(request), getUser({ request, context })])
	// Only right after a submission; anyone else gets the form.
	if (!receipt) throw redirect('/request-qr')
	return { receipt, signedIn: Boolean(user) }
}

export default function RequestQrSent({ loaderData }: Route.ComponentProps) {
	const { receipt, signedIn } = loaderData
	const codes = receipt.quantity === 1 ? 'Your free QR code' : `Your ${receipt.quantity} free QR codes`
	const points = [
		`${codes} will be mailed within 5-7 business days.`,
		'Your request is in our fulfilment queue.',
		`A confirmation e-mail is on its way to ${receipt.email}.`,
		'Your code is personalised: enter the PIN printed beside it to link it to your medical profile, and scanning it shows the emergency information you choose to share.',
	]
	return (
		<PublicShell title="Request Received" width="max-w-2xl">
			<div className={cardClass('p-6')}>
				<p className="text-lg font-semibold text-green-800">Thank you! We have your request.</p>
				<CheckList items={points} className="mt-4 space-y-3 text-gray-800" itemClassName="flex gap-2" />
				<Link to={signedIn ? '/dashboard' : '/auth'} className={buttonClass('primary', 'mt-6')}>
					{signedIn ? 'Go to Dashboard' : 'Go to Sign In'}
				</Link>
			</div>
		</PublicShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Request Received')
