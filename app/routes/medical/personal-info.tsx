import { getInputProps } from '@conform-to/react'
import { Form } from 'react-router'
import { ACCEPT } from '#app/domain/uploads/file-type.ts'
import { BLOOD_TYPES, GENDERS, PersonalInfoSchema } from '#app/domain/profiles/schemas.ts'
import { ErrorList, Field, options, StatusButton } from '#app/ui/forms.tsx'
import { INTENTS } from './intents.ts'
import { getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { AskFirst, AskLink, SectionCard } from './section-card.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'

const textFields = [
	['firstName', 'First name', 'given-name'],
	['middleName', 'Middle name', 'additional-name'],
	['lastName', 'Last name', 'family-name'],
	['phoneNumber', 'Phone number', 'tel'],
	['height', 'Height', 'off'],
	['weight', 'Weight', 'off'],
	['hairColor', 'Hair colour', 'off'],
	['eyeColor', 'Eye colour', 'off'],
	['race', 'Race / ethnicity', 'off'],
	['insurance', 'Insurance (summary)', 'off'],
	['streetAddress', 'Street address', 'street-address'],
	['city', 'City', 'address-level2'],
	['state', 'State', 'address-level1'],
	['zipCode', 'ZIP code', 'postal-code'],
] as const

export function PersonalInfoSection() {
	const { profile, canEdit } = useScreen()
	if (profile && !canEdit)
		return (
			<SectionCard id="personal" title="Personal Information">
				<ProfilePicture />
				<PersonalInfoRead profile={profile} />
			</SectionCard>
		)
	return <PersonalInfoForm />
}

const READ_FIELDS = [
	...textFields.slice(0, 3),
	['dateOfBirth', 'Date of birth'],
	['bloodType', 'Blood type'],
	['gender', 'Gender'],
	...textFields.slice(3),
	['distinguishingMarks', 'Distinguishing marks'],
] as const

/** What a viewer sees: the same fields, as text. */
function PersonalInfoRead({ profile }: { profile: Record<(typeof READ_FIELDS)[number][0], unknown> }) {
	const shown = READ_FIELDS.filter(([name]) => profile[name] != null && profile[name] !== '')
	if (!shown.length) return <p className="text-gray-700">No personal information recorded yet.</p>
	return (
		<dl className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
			{shown.map(([name, label]) => (
				<div key={name}>
					<dt className="text-sm font-semibold text-gray-700">{label}</dt>
					<dd className="text-gray-900">{String(profile[name])}</dd>
				</div>
			))}
		</dl>
	)
}

function PersonalInfoForm() {
	const { profile } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.saveProfile, PersonalInfoSchema, { defaultValue: profile ?? undefined })
	const pending = useIntentPending(INTENTS.saveProfile)
	return (
		<SectionCard id="personal" title="Personal Information">
			{profile ? <ProfilePicture /> : null}
			<Form method="post" preventScrollReset {...getFormProps(form)} key={profile?.id ?? 'new'} className="grid gap-4 sm:grid-cols-2">
				<HiddenIds />
				{textFields.slice(0, 3).map(([name, label, autoComplete]) => (
					<Field
						key={name}
						label={label}
						errors={fields[name].errors}
						inputProps={{ ...getInputProps(fields[name], { type: 'text' }), autoComplete }}
					/>
				))}
				<TextField field={fields.dateOfBirth} label="Date of birth" type="date" autoComplete="bday" />
				<ChoiceField field={fields.bloodType} label="Blood type" placeholder="Unknown" options={options(BLOOD_TYPES)} />
				<ChoiceField field={fields.gender} label="Gender" placeholder="Not specified" options={options(GENDERS)} />
				{textFields.slice(3).map(([name, label, autoComplete]) => (
					<Field
						key={name}
						label={label}
						errors={fields[name].errors}
						inputProps={{ ...getInputProps(fields[name], { type: name === 'phoneNumber' ? 'tel' : 'text' }), autoComplete }}
					/>
				))}
				<TextField field={fields.distinguishingMarks} label="Distinguishing marks (scars, tattoos, birthmarks)" className="sm:col-span-2" />
				<ErrorList id={form.errorId} errors={form.errors} alert />
				<div className="sm:col-span-2">
					<StatusButton intent={INTENTS.saveProfile} pending={pending} pendingLabel="Saving...">
						{profile ? 'Save Personal Information' : 'Create Medical Profile'}
					</StatusButton>
				</div>
			</Form>
		</SectionCard>
	)
}

function ProfilePicture() {
	const { profile, failure, deleting, canEdit } = useScreen()
	const pending = useIntentPending(INTENTS.uploadPicture)
	const error = failure?.intent === INTENTS.uploadPicture ? failure.result.error?.picture : undefined
	if (!profile) return null
	return (
		<div className="mb-5 flex flex-wrap items-center gap-4">
			{profile.profilePictureUrl ? (
				<img
					src={profile.profilePictureUrl}
					alt={`Photo of ${profile.fullName ?? 'this person'}`}
					className="size-24 rounded-full border border-gray-300 object-cover"
				/>
			) : (
				<div className="flex size-24 items-center justify-center rounded-full bg-gray-100 text-sm text-gray-600">No photo</div>
			)}
			{canEdit ? (
				<Form method="post" encType="multipart/form-data" preventScrollReset className="flex flex-wrap items-end gap-2">
					<HiddenIds />
					<Field
						label="Profile picture"
						errors={error}
						inputProps={{ type: 'file', name: 'picture', accept: ACCEPT.images, required: true, className: 'py-1.5' }}
					/>
					<OfflineMessage title="Upload Failed" description="Upload failed" />
					<StatusButton intent={INTENTS.uploadPicture} variant="secondary" pending={pending} pendingLabel="Uploading...">
						Upload Photo
					</StatusButton>
				</Form>
			) : null}
			{profile.profilePictureUrl && canEdit ? <AskLink what="photo" label="Remove Photo" /> : null}
			{deleting === 'photo' && profile.profilePictureUrl && canEdit ? (
				<AskFirst what="photo" title="Remove Photo?" intent={INTENTS.removePicture} confirmLabel="Remove Photo" pendingLabel="Removing...">
					<p>Responders who scan this profile’s QR code will no longer see this photo. To show one again, upload it again.</p>
				</AskFirst>
			) : null}
		</div>
	)
}
