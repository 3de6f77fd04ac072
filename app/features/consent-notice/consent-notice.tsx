import { Link, useFetcher, useLocation } from 'react-router'
import { CONSENT_INTENTS } from '#app/domain/consent/consents.ts'
import { buttonClass } from '#app/ui/forms.tsx'

export type ConsentNoticeData = { missing: number; total: number } | null

/**
 * Spec 002 §2: top right while consent forms are missing. It sits above the page rather than over it, so it never
 * hides a control. Closing it is remembered for the browser session (a cookie), with or without JavaScript.
 */
export function ConsentNotice({ notice }: { notice: ConsentNoticeData }) {
	const location = useLocation()
	const fetcher = useFetcher()
	if (!notice || location.pathname === '/consent' || fetcher.state !== 'idle' || fetcher.data) return null
	const here = location.pathname + location.search
	return (
		<aside aria-labelledby="consent-notice-title" className="mx-auto flex max-w-5xl justify-end px-4 pt-4">
			<div className="w-full max-w-sm rounded-lg border border-amber-400 bg-amber-50 p-4 shadow-md">
				<div className="flex items-start justify-between gap-3">
					<p id="consent-notice-title" className="font-bold text-gray-900">
						Complete Your Medical Profile
					</p>
					<fetcher.Form method="post" action="/consent">
						<input type="hidden" name="intent" value={CONSENT_INTENTS.dismissNotice} />
						<input type="hidden" name="redirectTo" value={here} />
						<button
							type="submit"
							aria-label="Close notice"
							className="-m-2 min-h-11 min-w-11 rounded text-2xl leading-none text-gray-700 hover:bg-amber-100"
						>
							×
						</button>
					</fetcher.Form>
				</div>
				<p className="mt-1 text-sm text-gray-800">
					{notice.missing} of {notice.total} required consent forms still need your agreement.
				</p>
				<Link to={`/consent?${new URLSearchParams({ redirectTo: here })}`} className={buttonClass('primary', 'mt-3 w-full')}>
					Complete Missing Forms
				</Link>
			</div>
		</aside>
	)
}
