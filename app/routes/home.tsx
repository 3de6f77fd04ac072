import { desc, eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { getUser } from '#app/middleware/user.server.ts'
import { subscriptionOf } from '#app/domain/giving/donations.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import type { Route } from './+types/home'
import { LandingView } from '../features/landing/landing-view.tsx'
import { PinForm } from '../features/pin-claim/pin-form-lazy.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'
import { MedicalInfoScreen } from './medical/medical-info-screen-lazy.ts'
import { medicalInfoAction, medicalInfoLoader } from './medical/medical-info.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { formatDate } from '#app/utils/dates.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	// Signed out, / is the landing page (the dashboard's gate lets it through); everywhere else the gate has checked.
	const user = await getUser({ request, context })
	if (!user) return { user: null, codes: [], screen: null, monthlyGift: null }
	// Stripe's return from a monthly gift (spec 002): the page says where the gift stands; only the webhook confirms it.
	const subscribed = new URL(request.url).searchParams.get('subscribed') === 'true'
	const [codes, screen, monthly] = await Promise.all([
		db
			.select({ id: qrCodes.id, pin: qrCodes.pin, claimedAt: qrCodes.claimedAt, isActive: qrCodes.isActive })
			.from(qrCodes)
			.where(eq(qrCodes.userId, user.id))
			.orderBy(desc(qrCodes.claimedAt)),
		medicalInfoLoader({ request, context }),
		subscribed ? subscriptionOf(user.id) : null,
	])
	return { user, codes, screen, monthlyGift: subscribed ? { active: monthly?.status === 'active', plan: monthly?.plan ?? null } : null }
}

export async function action({ request, context }: Route.ActionArgs) {
	return medicalInfoAction(request, context)
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
	const { user, codes, screen, monthlyGift } = loaderData
	if (!user || !screen) return <LandingView />
	const pinResult = actionData && 'intent' in actionData && actionData.intent === PIN_INTENT ? actionData.result : undefined
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			{monthlyGift ? (
				<p role="status" className="rounded-lg border border-green-700 bg-green-50 p-4 font-semibold text-green-900">
					{monthlyGift.active
						? 'Thank you: your monthly gift is active. Each month’s receipt follows by e-mail.'
						: 'Thank you: your monthly gift is being confirmed with Stripe. Its receipt follows by e-mail once it is.'}
				</p>
			) : null}
			<h1 className="text-2xl font-bold">Medical Information</h1>
			<MedicalInfoScreen data={screen} failure={pinResult ? null : (actionData ?? null)} base="/dashboard" />
			<section aria-labelledby="codes-heading" className={cardClass('p-5')}>
				<h2 id="codes-heading" className="text-xl font-bold">
					Your QR codes
				</h2>
				{codes.length ? (
					<ul className="mt-3 divide-y divide-gray-200">
						{codes.map((code) => (
							<li key={code.id} className="flex justify-between py-2">
								<span className="font-mono">{code.pin}</span>
								<span className="text-gray-700">
									{code.isActive ? 'Active' : 'Inactive'} · claimed {code.claimedAt ? formatDate(code.claimedAt) : ''}
								</span>
							</li>
						))}
					</ul>
				) : (
					<p className="mt-2 text-gray-700">You have not claimed a QR code yet.</p>
				)}
				<div className="mt-4 max-w-md">
					<h3 className="font-semibold">Already Have a QR Code?</h3>
					<p className="mb-3 text-gray-700">Enter the PIN from your QR code sticker or card</p>
					<PinForm action="/dashboard" lastResult={pinResult} />
				</div>
			</section>
		</main>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData?.user ? 'Dashboard' : 'Sign in')
