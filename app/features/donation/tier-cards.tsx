import { useState } from 'react'
import { Form, Link, useNavigate, useNavigation } from 'react-router'
import { AMOUNT_MESSAGES, amountProblem, CUSTOM_TIER, MAX_DONATION, MIN_DONATION, tierCents, TIERS } from '#app/domain/giving/amounts.ts'
import { feeText, STANDARD_FEE } from '#app/domain/giving/payment-methods.ts'
import { CheckboxField, ErrorList, Field, StatusButton } from '#app/ui/forms.tsx'
import { cx } from '#app/ui/cx.ts'
import { showClientToast } from '#app/utils/network-failure.ts'
import { startInPage } from './in-page-donation.ts'

const BLURBS: Record<string, string> = {
	supporter: 'Helps print and mail a free QR sticker.',
	advocate: 'Helps keep every code answering, day and night.',
	champion: 'Helps a whole family carry their information.',
}

export type TierErrors = { customAmount?: string[]; form?: string[] }

const card = 'flex flex-col rounded-lg border border-gray-300 bg-white p-4'

/**
 * Spec 002's donation tier page: free, supporter, advocate, champion and custom, each card its own submit button of one
 * form (so the custom amount and the card fee ride along), posting to /support. Without JavaScript, or without
 * Stripe's browser key, the server sends the donor to Stripe's page; with both, a signed-in donor gets the card form
 * here (amounts in cents, spec 002 §9). Signed out, the server sends the donor to sign in and back.
 */
export function TierCards({
	signedIn,
	inPage,
	chosen,
	amount,
	errors,
}: {
	signedIn: boolean
	inPage: boolean
	chosen?: string
	amount?: string
	errors?: TierErrors
}) {
	const navigation = useNavigation()
	const navigate = useNavigate()
	const [clientErrors, setClientErrors] = useState<TierErrors | null>(null)
	const [starting, setStarting] = useState<string | null>(null)
	const shown = clientErrors ?? errors ?? {}
	const pendingTier =
		starting ?? (navigation.state !== 'idle' && navigation.formAction === '/support' ? navigation.formData?.get('tier') : null)

	async function giveHere(event: React.FormEvent<HTMLFormElement>) {
		const submitter = (event.nativeEvent as SubmitEvent).submitter
		// The same amount rule as the server's DonateSchema (spec 002 §5), without zod in this page's first load.
		const typed = Object.fromEntries(new FormData(event.currentTarget, submitter))
		const tier = typeof typed.tier === 'string' ? typed.tier : ''
		const cents = tierCents(tier, typeof typed.customAmount === 'string' ? typed.customAmount : '')
		const problem = cents === null ? AMOUNT_MESSAGES.invalid.description : amountProblem(cents)
		if (problem || cents === null) {
			event.preventDefault()
			const message = problem ?? AMOUNT_MESSAGES.invalid.description
			setClientErrors({ customAmount: [message] })
			showClientToast({
				type: 'error',
				...(message === AMOUNT_MESSAGES.tooLarge.description ? AMOUNT_MESSAGES.tooLarge : AMOUNT_MESSAGES.invalid),
			})
			return
		}
		setClientErrors({})
		if (!inPage || !signedIn) return
		event.preventDefault()
		setStarting(tier)
		const checkout = await startInPage({ tier, netCents: cents, coverFees: typed.coverFees === 'on' })
		setStarting(null)
		if ('href' in checkout) return navigate(checkout.href)
		setClientErrors({ form: [AMOUNT_MESSAGES.tierError.description] })
		showClientToast({ type: 'error', ...AMOUNT_MESSAGES.tierError })
	}

	return (
		<Form method="post" action="/support" noValidate onSubmit={giveHere} className="space-y-5">
			<ul className="grid gap-3 sm:grid-cols-2">
				<li className={card}>
					<h3 className="text-lg font-bold text-gray-900">Free</h3>
					<p className="text-2xl font-extrabold text-gray-900">$0</p>
					<p className="mt-1 flex-1 text-gray-800">Every feature, for everyone. No card, no catch.</p>
					<Link to={signedIn ? '/dashboard' : '/'} className="mt-3 font-semibold text-blue-800 underline">
						{signedIn ? 'Continue Free' : 'Get Started Free'}
					</Link>
				</li>
				{TIERS.map((tier) => (
					<li key={tier.id} className={cx(card, chosen === tier.id && 'border-brand-700')}>
						<h3 className="text-lg font-bold text-gray-900">{tier.name}</h3>
						<p className="text-2xl font-extrabold text-gray-900">${tier.amount}</p>
						<p className="mt-1 flex-1 text-gray-800">{BLURBS[tier.id]}</p>
						<StatusButton
							type="submit"
							name="tier"
							value={tier.id}
							className="mt-3"
							pending={pendingTier === tier.id}
							pendingLabel="Redirecting..."
						>
							Give ${tier.amount}
						</StatusButton>
					</li>
				))}
				<li className={cx(card, chosen === CUSTOM_TIER && 'border-brand-700')}>
					<h3 className="text-lg font-bold text-gray-900">Custom</h3>
					<Field
						label="Your amount (USD)"
						errors={shown.customAmount}
						className="mt-1 flex-1"
						inputProps={{
							name: 'customAmount',
							type: 'number',
							min: MIN_DONATION,
							max: MAX_DONATION,
							step: 0.01,
							inputMode: 'decimal',
							defaultValue: amount,
						}}
					/>
					<StatusButton
						type="submit"
						name="tier"
						value={CUSTOM_TIER}
						className="mt-3"
						pending={pendingTier === CUSTOM_TIER}
						pendingLabel="Redirecting..."
					>
						Give This Amount
					</StatusButton>
				</li>
			</ul>
			<CheckboxField
				label={`Add the card fee (${feeText(STANDARD_FEE)}) so the whole gift reaches the foundation`}
				inputProps={{ name: 'coverFees' }}
			/>
			<ErrorList errors={shown.form} alert />
		</Form>
	)
}
