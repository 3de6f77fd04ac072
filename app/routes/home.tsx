import { desc, eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { DashboardHeader } from '#app/ui/dashboard-header.tsx'
import { getUser } from '#app/utils/auth.server.ts'
import type { Route } from './+types/home'
import { LandingView } from './auth/landing-view.tsx'
import { PinForm } from './auth/pin-form.tsx'

export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	if (!user) return { user: null, codes: [] }
	const codes = await db
		.select({ id: qrCodes.id, pin: qrCodes.pin, claimedAt: qrCodes.claimedAt, isActive: qrCodes.isActive })
		.from(qrCodes)
		.where(eq(qrCodes.userId, user.id))
		.orderBy(desc(qrCodes.claimedAt))
	return { user, codes }
}

export default function Home({ loaderData }: Route.ComponentProps) {
	const { user, codes } = loaderData
	if (!user) return <LandingView />
	return (
		<div className="min-h-screen">
			<DashboardHeader user={user} />
			<main id="main" className="mx-auto max-w-5xl space-y-6 px-4 py-8">
				<h1 className="text-2xl font-bold">Medical Dashboard</h1>
				<section aria-labelledby="codes-heading" className="rounded-xl border border-gray-300 bg-white p-6">
					<h2 id="codes-heading" className="text-xl font-bold">
						Your QR codes
					</h2>
					{codes.length ? (
						<ul className="mt-3 divide-y divide-gray-200">
							{codes.map((code) => (
								<li key={code.id} className="flex justify-between py-2">
									<span className="font-mono">{code.pin}</span>
									<span className="text-gray-700">
										{code.isActive ? 'Active' : 'Inactive'} · claimed {code.claimedAt?.toLocaleDateString('en-US')}
									</span>
								</li>
							))}
						</ul>
					) : (
						<p className="mt-2 text-gray-700">You have not claimed a QR code yet.</p>
					)}
				</section>
				<section aria-labelledby="claim-heading" className="max-w-md rounded-xl border border-gray-300 bg-white p-6">
					<h2 id="claim-heading" className="text-xl font-bold">
						Already Have a QR Code?
					</h2>
					<p className="mt-1 mb-4 text-gray-700">Enter the PIN from your QR code sticker or card</p>
					<PinForm />
				</section>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
	{ title: loaderData?.user ? 'Dashboard · Hit Me Helpers' : 'Sign in · Hit Me Helpers' },
]
