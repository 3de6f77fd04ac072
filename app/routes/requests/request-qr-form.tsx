import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { DEFAULT_COUNTRY } from '#app/domain/requests/countries.ts'
import { MAX_CODES_PER_REQUEST, QrRequestSchema, REQUEST_FAILED } from '#app/domain/requests/schemas.ts'
import { AddressFieldset } from '#app/ui/address-fieldset.tsx'
import { ErrorList, options, StatusButton, TextareaField } from '#app/ui/forms.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { HoneypotField } from '#app/ui/honeypot-field.tsx'
import { TextField, textFieldProps } from '#app/ui/text-field.tsx'

export function QrRequestForm({
	lastResult,
	defaults,
	countries,
}: {
	lastResult?: SubmissionResult<string[]> | null
	defaults: { fullName: string; email: string }
	/** The country names offered, from the loader: the server's names, so hydration finds the same options. */
	countries: readonly string[]
}) {
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'qr-request',
		lastResult,
		defaultValue: { ...defaults, quantity: '1', country: DEFAULT_COUNTRY },
		constraint: getZodConstraint(QrRequestSchema),
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: QrRequestSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="space-y-4">
			<OfflineMessage title="Request Failed" description={REQUEST_FAILED} />
			<HoneypotField id="qr-request-website" />
			<div className="grid gap-4 sm:grid-cols-2">
				<TextField field={fields.fullName} label="Full name" autoComplete="name" />
				<TextField field={fields.email} label="Email" type="email" autoComplete="email" />
			</div>
			<TextField
				field={fields.quantity}
				label="Quantity"
				type="number"
				className="max-w-48"
				hint={`1 to ${MAX_CODES_PER_REQUEST} codes per request`}
				inputMode="numeric"
			/>
			<AddressFieldset
				legend="Shipping address"
				street={textFieldProps(fields.streetAddress, 'Street address')}
				city={textFieldProps(fields.city, 'City')}
				state={textFieldProps(fields.state, 'State/Province')}
				postalCode={textFieldProps(fields.postalCode, 'Postal code')}
				country={{
					label: 'Country',
					errors: fields.country.errors,
					options: options(countries),
					selectProps: { ...getSelectProps(fields.country), autoComplete: 'country-name' },
				}}
			/>
			<TextareaField label="Notes (optional)" errors={fields.notes.errors} textareaProps={getTextareaProps(fields.notes)} />
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" className="w-full sm:w-auto" pending={isPending} pendingLabel="Submitting...">
				Submit Request
			</StatusButton>
		</Form>
	)
}
