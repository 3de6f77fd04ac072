import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import {
	DEFAULT_EXPIRY,
	EXPIRY_OPTIONS,
	HEALTH_LINK_INTENTS,
	LABEL_MAX,
	MAX_ACTIVE_LINKS,
	PASSCODE_ATTEMPTS,
} from '#app/domain/sharing/options.ts'
import { HealthLinkSchema } from '#app/domain/sharing/schemas.ts'
import { ErrorList, Field, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'

const EXPIRY_SELECT = EXPIRY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))

/** A new SMART Health Link for one profile: an optional label and passcode, and when it expires. */
export function CreateForm({
	profileId,
	lastResult,
	active,
}: {
	profileId: number
	lastResult?: SubmissionResult<string[]>
	active: number
}) {
	const [form, fields] = useForm({
		id: `shl-create-${profileId}`,
		lastResult,
		constraint: getZodConstraint(HealthLinkSchema),
		defaultValue: { expires: DEFAULT_EXPIRY },
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: HealthLinkSchema }),
	})
	const id = (field: string) => `shl-${field}-${profileId}`
	return (
		<Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 space-y-3 rounded-lg bg-gray-50 p-4">
			<h3 className="font-semibold">Make a new link</h3>
			<input type="hidden" name="profileId" value={profileId} />
			<OfflineMessage title="Error" description="Failed to create the SMART Health Link" />
			<div className="grid gap-3 sm:grid-cols-3">
				<Field
					label="Label (optional)"
					hint="Shown in the clinician’s app, e.g. “For Dr. Lee”"
					inputProps={{ ...getInputProps(fields.label, { type: 'text' }), id: id('label'), maxLength: LABEL_MAX }}
					errors={fields.label.errors}
				/>
				<Field
					label="Passcode (optional)"
					hint={`4 to 64 characters; tell it apart from the link. ${PASSCODE_ATTEMPTS} wrong tries end the link.`}
					inputProps={{
						...getInputProps(fields.passcode, { type: 'text' }),
						id: id('passcode'),
						autoComplete: 'off',
						spellCheck: false,
					}}
					errors={fields.passcode.errors}
				/>
				<SelectField
					label="Expires after"
					selectProps={{ ...getSelectProps(fields.expires), id: id('expires') }}
					options={EXPIRY_SELECT}
					errors={fields.expires.errors}
				/>
			</div>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			{active >= MAX_ACTIVE_LINKS ? (
				<p className="text-sm text-gray-700">
					This profile has {MAX_ACTIVE_LINKS} active links, the most it can have: revoke one to make another.
				</p>
			) : null}
			<StatusButton type="submit" name="intent" value={HEALTH_LINK_INTENTS.create}>
				Create SMART Health Link
			</StatusButton>
		</Form>
	)
}
