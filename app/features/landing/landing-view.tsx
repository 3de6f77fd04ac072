import { useState } from 'react'
import type { SubmissionResult } from '@conform-to/react'
import { Link, useNavigation } from 'react-router'
import { Logo, SiteFooter } from '#app/ui/brand.tsx'
import { buttonClass, StatusButton } from '#app/ui/forms.tsx'
import type { PublicUser } from '#app/domain/accounts/accounts.server.ts'
import { PinForm } from '../pin-claim/pin-form-lazy.ts'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'
import { cardClass, CheckList } from '#app/ui/card.tsx'

const footerPoints = [
	'Secure direct authentication',
	'Emergency medical information management',
	'Generate QR codes for first responders',
	'Completely free and donation-based',
]

export function LandingView({ pinResult }: { pinResult?: SubmissionResult<string[]> | null }) {
	return (
		<LandingShell>
			<div className="grid gap-6 md:grid-cols-3">
				<Card title="Already Have a QR Code?" text="Enter the PIN from your QR code sticker or card">
					<PinForm lastResult={pinResult} />
				</Card>
				<Card title="Need a QR Code?" text="Request your free QR code now. Create an account when you activate it.">
					<Link to="/request-qr" className={buttonClass('blue', 'w-full')}>
						Request Free QR Code
					</Link>
				</Card>
				<Card title="Returning User" text="Secure access to your medical emergency platform">
					<SignInLink />
				</Card>
			</div>
			<div className="mt-8 text-center">
				<Link to="/donate" className={buttonClass('secondary', 'border-brand-700 text-brand-800')}>
					<span aria-hidden="true">♥</span> Support Our Mission
				</Link>
			</div>
			<CheckList
				items={footerPoints}
				className="mx-auto mt-10 grid max-w-2xl gap-2 text-gray-700 sm:grid-cols-2"
				itemClassName="flex items-start gap-2"
			/>
		</LandingShell>
	)
}

/** Sign-in is a full page load of /api/login (it may leave for the identity provider). */
function SignInLink() {
	const [pending, setPending] = useState(false)
	return (
		<a href="/api/login" className={buttonClass('primary', 'w-full')} onClick={() => setPending(true)}>
			{pending ? 'Authenticating...' : 'Sign In'}
		</a>
	)
}

export function WelcomeBackView({ user }: { user: PublicUser }) {
	const navigation = useNavigation()
	const switching = navigation.state !== 'idle' && navigation.formAction === '/api/auth/logout'
	return (
		<LandingShell>
			<div className={cardClass('mx-auto max-w-md p-6 text-center')}>
				<h2 className="text-2xl font-bold">Welcome Back!</h2>
				<p className="mt-2 text-lg text-gray-700">{user.firstName || user.email || 'Medical User'}</p>
				<div className="mt-6 flex flex-col gap-3">
					<Link to="/dashboard" className={buttonClass('primary')}>
						Continue to Medical Dashboard
					</Link>
					<SignOutForm switchAccount>
						<StatusButton type="submit" variant="secondary" className="w-full" pending={switching} pendingLabel="Switching...">
							Switch Account
						</StatusButton>
					</SignOutForm>
				</div>
			</div>
		</LandingShell>
	)
}

function LandingShell({ children }: { children: React.ReactNode }) {
	return (
		<div className="min-h-screen pb-24">
			<header className="px-4 pt-10 pb-6 text-center">
				<div className="flex items-center justify-center gap-3">
					<Logo className="size-12" />
					<h1 className="text-3xl font-extrabold tracking-tight text-gray-900 sm:text-4xl">Hit Me Helpers</h1>
				</div>
				<p className="mt-2 text-lg font-medium text-gray-700">Secure Medical Authentication</p>
			</header>
			<main id="main" className="mx-auto max-w-5xl px-4">
				{children}
				<p className="mx-auto mt-8 max-w-2xl text-center text-sm text-gray-600">
					Hit Me Helpers is a nonprofit service. We are not a healthcare provider and are not covered by HIPAA, the US health-privacy law.
				</p>
			</main>
			<SiteFooter />
		</div>
	)
}

function Card({ title, text, children }: { title: string; text: string; children: React.ReactNode }) {
	return (
		<section className={cardClass('flex flex-col p-6')} aria-labelledby={slug(title)}>
			<h2 id={slug(title)} className="text-xl font-bold text-gray-900">
				{title}
			</h2>
			<p className="mt-1 mb-4 flex-1 text-gray-700">{text}</p>
			{children}
		</section>
	)
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, '-')
