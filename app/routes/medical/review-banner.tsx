import { Form, Link } from 'react-router'
import { buttonClass, StatusButton } from '#app/ui/forms.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { INTENTS, screenHref } from './intents.ts'
import { useIntentPending, useScreen } from './screen-context.tsx'

/** While a profile's review is due: confirm it as it is, or open it to update it. */
export function ReviewBanner() {
	const { reviewsDue, base } = useScreen()
	if (!reviewsDue.length) return null
	return (
		<section aria-labelledby="review-due-title" className="rounded-lg border-2 border-amber-600 bg-amber-50 p-4">
			<h2 id="review-due-title" className="text-lg font-bold text-gray-900">
				Time to review {reviewsDue.length === 1 ? 'your emergency information' : 'these profiles'}
			</h2>
			<ul className="mt-2 space-y-3">
				{reviewsDue.map((review) => (
					<DueReview key={review.id} review={review} href={screenHref(base, { profile: review.id })} />
				))}
			</ul>
		</section>
	)
}

function DueReview({ review, href }: { review: { id: number; fullName: string | null; confirmedOn: Date }; href: string }) {
	const pending = useIntentPending(INTENTS.confirmReview)
	const name = review.fullName ?? 'This profile'
	return (
		<li className="flex flex-wrap items-center justify-between gap-3">
			<p className="text-gray-900">
				<span className="font-semibold">{name}</span>: last confirmed on {formatDate(review.confirmedOn)}. Is it still correct?
			</p>
			<div className="flex flex-wrap gap-2">
				<Form method="post" preventScrollReset>
					<input type="hidden" name="profileId" value={review.id} />
					<StatusButton
						type="submit"
						name="intent"
						value={INTENTS.confirmReview}
						pending={pending}
						pendingLabel="Confirming..."
						aria-label={`${name}: still correct`}
						className="min-h-9 px-3 py-1 text-sm"
					>
						Still correct
					</StatusButton>
				</Form>
				<Link to={href} className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')} aria-label={`Review and update ${name}`}>
					Review and update
				</Link>
			</div>
		</li>
	)
}
