import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, useNavigation } from 'react-router'
import { PinSchema } from '#app/domain/accounts/schemas.ts'
import { Field, StatusButton } from '#app/ui/forms.tsx'
import { pinInputProps } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'

/**
 * A sticker's PIN. Signed out it posts to /auth; the dashboard and the QR Codes tab post it to themselves (`action`),
 * so a wrong PIN keeps the person where they were, with the message beside the field.
 */
export function PinForm({ lastResult, action = '/auth' }: { lastResult?: SubmissionResult<string[]> | null; action?: string }) {
	const navigation = useNavigation()
	const [form, fields] = useSchemaForm(PinSchema, { id: 'pin-form', lastResult, shouldValidate: 'onSubmit' })
	const pending = navigation.state !== 'idle' && navigation.formData?.getAll('intent').includes(PIN_INTENT) === true
	// Spec 000 §5 disables the button until 8 characters; it stays usable here, and a shorter PIN is answered beside the
	// field ('Please enter an 8-character PIN').
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
			<StatusButton intent={PIN_INTENT} className="w-full" pending={pending} pendingLabel="Validating...">
				Claim Your QR Code
			</StatusButton>
		</Form>
	)
}
