import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { Form, useNavigate } from 'react-router'
import { feeText, STANDARD_FEE } from '#app/domain/giving/payment-methods.ts'
import { AMOUNT_MESSAGES, CUSTOM_TIER, DonateSchema, MAX_DONATION, MIN_DONATION, TIERS } from '#app/domain/giving/schemas.ts'
import { CheckboxField, ErrorList, Field, StatusButton } from '#app/ui/forms.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { showClientToast } from '#app/utils/network-failure.ts'
import { startInPage } from '../../features/donation/in-page-donation.ts'
import { HoneypotField } from '#app/ui/honeypot-field.tsx'

/** The amounts (spec 002 §5), then Stripe's hosted page; without JavaScript the same form posts and redirects. */
export function DonateForm({
	lastResult,
	tier,
	amount,
	inPage,
}: {
	lastResult?: SubmissionResult<string[]> | null
	tier: string
	amount: string
	/** With Stripe's browser key: the spec's flow, a PaymentIntent and the card form at /checkout. */
	inPage: boolean
}) {
	const pending = useIsPending()
	const navigate = useNavigate()
	const [starting, setStarting] = useState(false)
	const [form, fields] = useForm({
		id: 'donate',
		lastResult,
		defaultValue: { tier, customAmount: amount },
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: DonateSchema }),
		onSubmit: async (event, { submission }) => {
			if (!inPage || submission?.status !== 'success') return
			event.preventDefault()
			setStarting(true)
			const checkout = await startInPage(submission.value)
			setStarting(false)
			if ('href' in checkout) return navigate(checkout.href)
			showClientToast({ type: 'error', title: AMOUNT_MESSAGES.guestError.title, description: checkout.message })
		},
	})
	// Spec 002 §5 disables Donate while the custom amount is out of range; it stays usable here, and pressing it says
	// what is wrong beside the amount (the spec's messages), with or without JavaScript.
	return (
		// The server checks the amount (with the spec's messages); the browser's own check would also block a preset tier
		// whenever the custom field holds something out of range.
		<Form method="post" {...getFormProps(form)} noValidate className="space-y-5">
			<HoneypotField id="donate-website" />
			<fieldset>
				<legend className="text-lg font-bold text-gray-900">Choose an amount</legend>
				<div className="mt-3 grid gap-3 sm:grid-cols-2">
					{[...TIERS, { id: CUSTOM_TIER, name: 'Custom', amount: null }].map((option) => (
						<label
							key={option.id}
							className="flex cursor-pointer items-center gap-3 rounded-lg border border-gray-300 bg-white p-4 has-checked:border-brand-700 has-checked:bg-red-50"
						>
							<input {...getInputProps(fields.tier, { type: 'radio', value: option.id })} className="size-5 accent-red-700" />
							<span className="font-semibold text-gray-900">
								{option.name}
								{option.amount ? ` · $${option.amount}` : ': your own amount'}
							</span>
						</label>
					))}
				</div>
				<ErrorList id={fields.tier.errorId} errors={fields.tier.errors} />
			</fieldset>
			<Field
				label="Custom amount (USD)"
				hint={`From $${MIN_DONATION} to $${MAX_DONATION.toLocaleString('en-US')}; used when Custom is chosen.`}
				errors={fields.customAmount.errors}
				className="max-w-xs"
				inputProps={{
					...getInputProps(fields.customAmount, { type: 'number' }),
					min: MIN_DONATION,
					max: MAX_DONATION,
					step: 0.01,
					inputMode: 'decimal',
				}}
			/>
			<CheckboxField
				label={`Add the card fee (${feeText(STANDARD_FEE)}) so the whole gift reaches the foundation`}
				inputProps={getInputProps(fields.coverFees, { type: 'checkbox' })}
			/>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full sm:w-auto" pending={pending || starting} pendingLabel="Redirecting...">
				Donate
			</StatusButton>
		</Form>
	)
}
