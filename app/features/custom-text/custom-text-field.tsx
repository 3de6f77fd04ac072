import { CUSTOM_TEXT_MAX_CHARACTERS, type customTextStatus } from '#app/domain/qr/palette.ts'
import { Field } from '#app/ui/forms.tsx'

/**
 * The text printed under a QR code, on the code's own look and on a product alike: the rule as a hint until the page's
 * JavaScript runs, then whether what is typed fits, as it is typed.
 */
export function CustomTextField({
	defaultValue,
	errors,
	status,
	hydrated,
	onText,
}: {
	defaultValue: string
	errors?: string[]
	status: ReturnType<typeof customTextStatus>
	hydrated: boolean
	onText: (text: string) => void
}) {
	return (
		<Field
			label="Custom text (optional)"
			errors={errors}
			hint={
				hydrated ? (
					<span className={status.valid ? 'text-green-800' : 'font-semibold text-red-700'}>{status.message}</span>
				) : (
					'At most 25 characters, of which at most 16 letters (spaces and digits do not count).'
				)
			}
			inputProps={{
				name: 'customText',
				defaultValue,
				maxLength: CUSTOM_TEXT_MAX_CHARACTERS,
				onInput: (e) => onText(e.currentTarget.value),
			}}
		/>
	)
}
