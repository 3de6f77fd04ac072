import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { COUNTRIES, DEFAULT_COUNTRY } from '#app/domain/requests/countries.ts'
import { HONEYPOT_FIELD, MAX_CODES_PER_REQUEST, QrRequestSchema, REQUEST_FAILED } from '#app/domain/requests/schemas.ts'
import { ErrorList, Field, options, SelectField, StatusButton, TextareaField } from '#app/ui/forms.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'

const countryOptions = options(COUNTRIES)

export function QrRequestForm({
	lastResult,
	defaults,
}: {
	lastResult?: SubmissionResult<string[]> | null
	defaults: { fullName: string; email: string }
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
			<div className="hidden" aria-hidden="true">
				<label htmlFor="qr-request-website">Leave this field empty</label>
				<input id="qr-request-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
			</div>
			<div className="grid gap-4 sm:grid-cols-2">
				<Field
					label="Full name"
					errors={fields.fullName.errors}
					inputProps={{ ...getInputProps(fields.fullName, { type: 'text' }), autoComplete: 'name' }}
				/>
				<Field
					label="Email"
					errors={fields.email.errors}
					inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'email' }}
				/>
			</div>
			<Field
				label="Quantity"
				className="max-w-48"
				hint={`1 to ${MAX_CODES_PER_REQUEST} codes per request`}
				errors={fields.quantity.errors}
				inputProps={{ ...getInputProps(fields.quantity, { type: 'number' }), inputMode: 'numeric' }}
			/>
			<fieldset className="space-y-4">
				<legend className="mb-2 text-lg font-bold text-gray-900">Shipping address</legend>
				<Field
					label="Street address"
					errors={fields.streetAddress.errors}
					inputProps={{ ...getInputProps(fields.streetAddress, { type: 'text' }), autoComplete: 'street-address' }}
				/>
				<div className="grid gap-4 sm:grid-cols-2">
					<Field
						label="City"
						errors={fields.city.errors}
						inputProps={{ ...getInputProps(fields.city, { type: 'text' }), autoComplete: 'address-level2' }}
					/>
					<Field
						label="State/Province"
						errors={fields.state.errors}
						inputProps={{ ...getInputProps(fields.state, { type: 'text' }), autoComplete: 'address-level1' }}
					/>
					<Field
						label="Postal code"
						errors={fields.postalCode.errors}
						inputProps={{ ...getInputProps(fields.postalCode, { type: 'text' }), autoComplete: 'postal-code' }}
					/>
					<SelectField
						label="Country"
						errors={fields.country.errors}
						options={countryOptions}
						selectProps={{ ...getSelectProps(fields.country), autoComplete: 'country-name' }}
					/>
				</div>
			</fieldset>
			<TextareaField label="Notes (optional)" errors={fields.notes.errors} textareaProps={getTextareaProps(fields.notes)} />
			<ErrorList id={form.errorId} errors={form.errors} />
			<StatusButton type="submit" className="w-full sm:w-auto" pending={isPending} pendingLabel="Submitting...">
				Submit Request
			</StatusButton>
		</Form>
	)
}
