import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { TrackOrderSchema } from '#app/domain/shop/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { TextField } from '#app/ui/text-field.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { cardClass } from '#app/ui/card.tsx'
import { HoneypotField } from '#app/ui/honeypot-field.tsx'

export function TrackOrderForm({
	lastResult,
	defaultValue,
}: {
	lastResult?: SubmissionResult<string[]>
	defaultValue: { confirmationNumber: string; email: string }
}) {
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'track-order',
		lastResult,
		defaultValue,
		constraint: getZodConstraint(TrackOrderSchema),
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TrackOrderSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className={cardClass('space-y-4 p-6')}>
			<HoneypotField id="tracking-website" />
			<p className="text-gray-800">
				Enter the confirmation number from your confirmation e-mail and the e-mail address the order was placed with.
			</p>
			<div className="grid gap-4 sm:grid-cols-2">
				<TextField
					field={fields.confirmationNumber}
					label="Confirmation number"
					placeholder="HMH-12345678"
					autoComplete="off"
					className="uppercase"
				/>
				<TextField field={fields.email} label="Email" type="email" autoComplete="email" />
			</div>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" pending={isPending} pendingLabel="Tracking...">
				Track Order
			</StatusButton>
		</Form>
	)
}
