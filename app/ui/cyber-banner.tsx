import { useEffect, useState, useSyncExternalStore } from 'react'
import { Link, useLocation } from 'react-router'
import { HIDE_CYBER_BANNER, rememberCyberBannerHidden } from '#app/utils/cyber-banner.ts'
import { buttonClass } from './forms.tsx'

function subscribe(onChange: () => void) {
	window.addEventListener('storage', onChange)
	return () => window.removeEventListener('storage', onChange)
}

function hiddenInStorage() {
	try {
		return localStorage.getItem(HIDE_CYBER_BANNER) === 'true'
	} catch {
		return false // storage blocked: the cookie still remembers
	}
}

const rememberInCookie = () => rememberCyberBannerHidden(window.location.protocol === 'https:')

/**
 * The bottom cyber-risk banner. Dismissal is remembered in localStorage and a cookie with JavaScript, and by a form
 * post that sets the cookie without it; the server leaves the banner out once the cookie is there.
 */
export function CyberBanner({ hiddenByCookie }: { hiddenByCookie: boolean }) {
	const location = useLocation()
	const storedHidden = useSyncExternalStore(subscribe, hiddenInStorage, () => false)
	const [dismissed, setDismissed] = useState(false)
	useEffect(() => {
		// Dismissed in this browser before the cookie existed (or after it was cleared): let the server know again.
		if (storedHidden && !hiddenByCookie) rememberInCookie()
	}, [storedHidden, hiddenByCookie])
	if (hiddenByCookie || storedHidden || dismissed) return null
	return (
		<section
			id="cyber-banner"
			aria-label="Online safety notice"
			className="fixed inset-x-0 bottom-0 z-30 border-t-4 border-amber-500 bg-white shadow-[0_-4px_12px_rgba(0,0,0,0.08)] print:hidden"
		>
			<div className="mx-auto max-w-5xl px-4 py-3">
				<p className="text-gray-900">
					<strong>Beware of scams.</strong> Hit Me Helpers will never ask for your password, PIN or payment details by e-mail, text message
					or phone call.
				</p>
				<div className="mt-1 flex items-start justify-between gap-4">
					<details className="min-w-0 flex-1">
						<summary className="cursor-pointer py-2 font-semibold text-blue-800 underline">More info</summary>
						<ul className="mt-1 max-h-[40vh] list-disc space-y-1 overflow-y-auto pl-5 text-sm text-gray-800">
							<li>
								Phishing messages copy our name and logo to get you to sign in on a fake page. Before you sign in or enter a PIN, check the
								address bar.
							</li>
							<li>
								The PIN printed beside your QR code claims it. Type it only on this site, never into a page someone sent you a link to.
							</li>
							<li>Use a password you use nowhere else, and sign out on shared computers.</li>
							<li>
								If a message in our name looks wrong, do not open its links or attachments.{' '}
								<Link to="/team" className="font-semibold text-blue-800 underline">
									Contact the foundation
								</Link>{' '}
								instead.
							</li>
						</ul>
					</details>
					<form
						method="post"
						action="/cyber-banner/dismiss"
						onSubmit={(event) => {
							event.preventDefault()
							try {
								localStorage.setItem(HIDE_CYBER_BANNER, 'true')
							} catch {
								// storage blocked: the cookie alone remembers
							}
							rememberInCookie()
							setDismissed(true)
						}}
					>
						<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
						<button type="submit" className={buttonClass('secondary', 'min-h-10 py-1')}>
							Dismiss
						</button>
					</form>
				</div>
			</div>
		</section>
	)
}
