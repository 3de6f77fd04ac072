import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, redirect } from 'react-router'
import { formatDollars, planById } from '#app/domain/giving/amounts.ts'
import { manageSubscription, subscriptionOf } from '#app/domain/giving/donations.server.ts'
import { ManageGiftSchema } from '#app/domain/giving/schemas.ts'
import { giftsOf } from '#app/domain/giving/statements.server.ts'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass, StatusButton } from '#app/ui/forms.tsx'
import { ScrollTable } from '#app/ui/scroll-table.tsx'
import { env } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { formatDate } from '#app/utils/dates.ts'
import type { Route } from './+types/your-giving'
import { log } from '#app/utils/log.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const [gifts, monthly] = await Promise.all([giftsOf(user.id), subscriptionOf(user.id)])
	const years = [...new Set([new Date().getUTCFullYear(), ...gifts.map((gift) => gift.paidAt.getUTCFullYear())])].sort((a, b) => b - a)
	return {
		gifts: gifts.map((gift) => ({
			id: gift.id,
			date: formatDate(gift.paidAt),
			charged: formatDollars(gift.amountCents + gift.feeCents),
			fee: gift.feeCents ? formatDollars(gift.feeCents) : null,
			refunded: gift.refundedCents ? formatDollars(gift.refundedCents) : null,
		})),
		years,
		monthly: monthly && {
			plan: planById(monthly.plan)?.name ?? monthly.plan,
			status: monthly.status,
			renewsAt: monthly.renewsAt ? formatDate(monthly.renewsAt) : null,
			manageable: Boolean(monthly.customerId),
		},
	}
}

/** Manage or cancel: Stripe's billing page for the donor's own customer record, then back here. */
export async function action(args: Route.ActionArgs) {
	const user = await requireUser(args)
	const submission = parseWithZod(await readPageForm(args.request), { schema: ManageGiftSchema })
	try {
		return redirect(await manageSubscription(user.id, new URL('/dashboard/giving', env.PUBLIC_URL).toString()), 303)
	} catch (error) {
		// Without a monthly gift it is refused as such; anything else is Stripe (or the way to it) failing.
		if (!(error instanceof DomainError)) log.error({ err: error }, 'billing portal not opened')
		const refusal = error instanceof DomainError ? error : new DomainError(503, MANAGE_FAILED)
		return replyError(args, submission, refusal, { toast: 'Error' })
	}
}

const MANAGE_FAILED = 'Your monthly gift cannot be managed right now. Please try again, or write to us.'

const STATUS_WORDS: Record<string, string> = {
	active: 'active',
	incomplete: 'being confirmed',
	past_due: 'the last payment failed; Stripe will try again',
	canceled: 'cancelled',
	unpaid: 'unpaid',
	paused: 'paused',
	trialing: 'active',
	incomplete_expired: 'not started',
}

const GIFT_COLUMNS = ['Date', 'Receipt', 'Amount', 'Refunded']

export default function YourGiving({ loaderData: { gifts, years, monthly }, actionData }: Route.ComponentProps) {
	const pending = useIsPending()
	const refused = actionData?.result.error?.['']?.[0]
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 className="text-2xl font-bold">Your Giving</h1>
			<section aria-labelledby="gifts-title" className={cardClass('p-6')}>
				<h2 id="gifts-title" className="text-xl font-bold">
					Your gifts
				</h2>
				{gifts.length ? (
					<ScrollTable caption="Your gifts, newest first" className="mt-3" tableClassName="w-full text-left">
						<thead>
							<tr className="border-b border-gray-300">
								{GIFT_COLUMNS.map((heading, i) => (
									<th key={heading} scope="col" className={i < GIFT_COLUMNS.length - 1 ? 'py-2 pr-4' : 'py-2'}>
										{heading}
									</th>
								))}
							</tr>
						</thead>
						<tbody>
							{gifts.map((gift) => (
								<tr key={gift.id} className="border-b border-gray-200">
									<td className="py-2 pr-4">{gift.date}</td>
									<td className="py-2 pr-4">D-{gift.id}</td>
									<td className="py-2 pr-4">
										{gift.charged}
										{gift.fee ? <span className="block text-sm text-gray-700">including {gift.fee} to cover the card fee</span> : null}
									</td>
									<td className="py-2">{gift.refunded ?? 'None'}</td>
								</tr>
							))}
						</tbody>
					</ScrollTable>
				) : (
					<p className="mt-2 text-gray-800">No gifts yet. Gifts appear here once the payment is confirmed.</p>
				)}
				<Link to="/donate" className={buttonClass('primary', 'mt-4')}>
					Make a Donation
				</Link>
			</section>
			{monthly ? (
				<section aria-labelledby="monthly-title" className={cardClass('p-6')}>
					<h2 id="monthly-title" className="text-xl font-bold">
						Your monthly gift
					</h2>
					<p className="mt-2 text-gray-800">
						{monthly.plan}: {STATUS_WORDS[monthly.status] ?? monthly.status}
						{monthly.renewsAt && monthly.status === 'active' ? `, renews ${monthly.renewsAt}` : ''}.
					</p>
					{monthly.manageable ? (
						<Form method="post" className="mt-3">
							<StatusButton type="submit" variant="secondary" pending={pending} pendingLabel="Opening...">
								Change or Cancel Monthly Gift
							</StatusButton>
						</Form>
					) : null}
					{refused ? (
						<p role="alert" className="mt-2 text-red-800">
							{refused}
						</p>
					) : null}
				</section>
			) : null}
			<section aria-labelledby="statements-title" className={cardClass('p-6')}>
				<h2 id="statements-title" className="text-xl font-bold">
					Year-end statements
				</h2>
				<p className="mt-2 text-gray-800">
					A PDF of each year&apos;s confirmed gifts, with the foundation&apos;s details, for your tax records.
				</p>
				<ul className="mt-3 flex flex-wrap gap-2">
					{years.map((year) => (
						<li key={year}>
							<a href={`/dashboard/giving/statement/${year}`} download className={buttonClass('secondary')}>
								Statement {year} (PDF)
							</a>
						</li>
					))}
				</ul>
			</section>
		</main>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Your Giving')
