import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { PASSCODE_MAX } from '#app/domain/sharing/options.ts'
import { IMPORT_INTENTS, importHref } from '#app/domain/sharing/options.ts'
import { ImportReadSchema, SHLINK_MAX } from '#app/domain/sharing/schemas.ts'
import { ErrorList, Field, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'

/** The summary to read: a file, or a SMART Health Link of this app and its passcode. Nothing is saved by reading it. */
export function ImportForm({ profileId, lastResult }: { profileId: number; lastResult?: SubmissionResult<string[]> }) {
	const [form, fields] = useSchemaForm(ImportReadSchema, { id: `import-read-${profileId}`, lastResult })
	const pending = useIntentPending(IMPORT_INTENTS.read)
	return (
		<Form method="post" encType="multipart/form-data" action={importHref(profileId)} {...getFormProps(form)} className="space-y-5">
			<OfflineMessage title="Error" description="The health summary could not be sent. Please try again." />
			<Field
				label="Health summary file (FHIR JSON)"
				hint="An International Patient Summary, such as the one the QR Codes tab downloads. At most 1 MB."
				inputProps={{ ...getInputProps(fields.bundle, { type: 'file' }), accept: '.json,application/json,application/fhir+json' }}
				errors={fields.bundle.errors}
			/>
			<p className="font-semibold text-gray-800">Or a SMART Health Link</p>
			<Field
				label="SMART Health Link"
				hint="A link made by Hit Me Helpers, starting with shlink:/ (links from other apps cannot be read here)."
				inputProps={{
					...getInputProps(fields.shlink, { type: 'text' }),
					maxLength: SHLINK_MAX,
					autoComplete: 'off',
					spellCheck: false,
				}}
				errors={fields.shlink.errors}
			/>
			<Field
				label="Passcode (if the link has one)"
				hint="Each wrong passcode uses up one of the link’s tries."
				inputProps={{
					...getInputProps(fields.passcode, { type: 'password' }),
					maxLength: PASSCODE_MAX,
					autoComplete: 'off',
				}}
				errors={fields.passcode.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton intent={IMPORT_INTENTS.read} pending={pending} pendingLabel="Reading...">
				Read the summary
			</StatusButton>
		</Form>
	)
}
