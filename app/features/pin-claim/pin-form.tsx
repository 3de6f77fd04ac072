import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { Field, StatusButton } from '#app/ui/forms.tsx'
import { pinInputProps } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'

/**
 * A sticker's PIN. Signed out it posts to /auth; the dashboard and the QR Codes tab post it to themselves (`action`),
 * so a wrong PIN keeps the person where they were, with the message beside the field.
 */
export function PinForm({ lastResult, action = '/auth' }: { lastResult?: SubmissionResult<string[]> | null; action?: string }) {
	const navigation = useNavigation()
	const hydrated = useHydrated()
	const [form, fields] = useSchemaForm(PinSchema, { id: 'pin-form', lastResult, shouldValidate: 'onSubmit' })
	const pending = navigation.state !== 'idle' && navigation.formData?.getAll('intent').includes(PIN_INTENT) === true
	const value = (fields.pin.value ?? '').toString().trim()
	// With JavaScript the button waits for 8 characters; this says why, once something is typed.
	const short = hydrated && value.length > 0 && value.length !== 8
	return (
		<Form method="post" action={action} {...getFormProps(form)} className="space-y-3">
			<Field
				label="PIN"
				errors={fields.pin.errors}
				inputProps={{
					...pinInputProps(fields.pin),
					minLength: 8,
					spellCheck: false,
					placeholder: 'ABCD2345',
					className: 'text-center font-mono text-xl tracking-[0.3em] uppercase',
				}}
			/>
			<StatusButton
				intent={PIN_INTENT}
				className="w-full"
				pending={pending}
				pendingLabel="Validating..."
				disabled={hydrated && value.length !== 8}
				aria-describedby={short ? 'pin-form-length' : undefined}
			>
				Claim Your QR Code
			</StatusButton>
			<p id="pin-form-length" aria-live="polite" className="min-h-5 text-sm text-gray-700">
				{short ? 'Please enter an 8-character PIN' : null}
			</p>
		</Form>
	)
}
