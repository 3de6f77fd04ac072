import { getInputProps } from '@conform-to/react'
import { CareSettingsSchema } from '#app/domain/reviews/schemas.ts'
import { REVIEW_INTERVALS, reviewStatus } from '#app/domain/reviews/schedule.ts'
import { CheckboxField, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { ChoiceField } from '#app/ui/text-field.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { INTENTS } from './intents.ts'
import { Form, getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { SectionCard } from './section-card.tsx'

/** The intervals offered, and the profile's own when it is another (the form keeps what it cannot offer). */
const intervalOptions = (held: number) =>
	[...new Set<number>([...REVIEW_INTERVALS, held])]
		.sort((a, b) => a - b)
		.map((months) => ({ value: String(months), label: months === 1 ? 'Every month' : `Every ${months} months` }))

/** How often the owner is asked to confirm the profile, and whether a responder's "I'm helping" alerts anyone. */
export function CareSection() {
	const { profile, isOwner } = useScreen()
	// Settings of a saved profile: before there is one, there is nothing to remind about; the owner's alone.
	if (!profile || !isOwner) return null
	return (
		<SectionCard id="care" title="Reminders and Alerts">
			<CareForm profile={profile} />
		</SectionCard>
	)
}

function CareForm({
	profile,
}: {
	profile: { confirmedAt: Date | null; createdAt: Date; reviewIntervalMonths: number; helpingAlerts: boolean }
}) {
	const [form, fields] = useSectionForm(INTENTS.saveCareSettings, CareSettingsSchema, {
		defaultValue: { reviewIntervalMonths: profile.reviewIntervalMonths, helpingAlerts: profile.helpingAlerts },
	})
	const pending = useIntentPending(INTENTS.saveCareSettings)
	const { confirmedOn, dueAt, due } = reviewStatus(profile)
	return (
		<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
			<HiddenIds />
			<p className="text-gray-800">
				Last confirmed on {formatDate(confirmedOn)}. {due ? 'A review is due now.' : `Next review: ${formatDate(dueAt)}.`} Saving any
				change, or pressing “Still correct” in a reminder, confirms it.
			</p>
			<ChoiceField
				field={fields.reviewIntervalMonths}
				label="Ask me to confirm this profile is still correct"
				options={intervalOptions(profile.reviewIntervalMonths)}
			/>
			<CheckboxField
				label="When a responder presses “I’m helping” on this profile’s page, e-mail me and the emergency contacts marked “Alerted”"
				inputProps={getInputProps(fields.helpingAlerts, { type: 'checkbox' })}
				errors={fields.helpingAlerts.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<StatusButton type="submit" name="intent" value={INTENTS.saveCareSettings} pending={pending} pendingLabel="Saving...">
				Save Settings
			</StatusButton>
		</Form>
	)
}
