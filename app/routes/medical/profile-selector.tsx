import { Form, Link } from 'react-router'
import { FAMILY_GENDERS, FamilyMemberSchema, profileLabel, RELATIONSHIP_LABELS, RELATIONSHIPS } from '#app/domain/profiles/schemas.ts'
import { buttonClass, ErrorList, Field, options, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { ConfirmDialog, useFocusAfterChange } from '#app/ui/confirm-dialog.tsx'
import { INTENTS } from './intents.ts'
import { ActionButton, getFormProps, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { ChoiceField, pinInputProps, TextField } from '#app/ui/text-field.tsx'
import { cardClass } from '#app/ui/card.tsx'

/** The selector's id: focus goes to it once a profile was deleted (`?deleted=profile`), whose Delete went with it. */
const SELECTOR_ID = 'selected-profile'

/** A profile's name in the selector: a shared one says whose it is ("Shared by Vera"). */
function selectorLabel(p: ReturnType<typeof useScreen>['profiles'][number]) {
	if (p.role === 'owner') return profileLabel(p)
	return `${p.fullName ?? `Profile ${p.id}`} (Shared by ${p.sharedBy ?? 'its owner'})`
}

export function ProfileSelector() {
	const { profiles, profile, dialog, href, base, deleted, isOwner, refused } = useScreen()
	const { serverFocus } = useFocusAfterChange(deleted === 'profile', () => document.getElementById(SELECTOR_ID))
	const shown = profiles.find((p) => p.id === profile?.id)
	const ownCount = profiles.filter((p) => p.role === 'owner').length
	return (
		<section aria-labelledby="profiles-title" className={cardClass('p-5')}>
			<h2 id="profiles-title" className="text-xl font-bold text-gray-900">
				Medical Profiles
			</h2>
			{refused ? (
				<p role="alert" className="mt-2 rounded-lg border border-red-700 bg-red-50 p-3 font-semibold text-red-900">
					The profile in this address is not shared with you (or no longer is). Here is {profile ? 'another one' : 'your page'} instead.
				</p>
			) : null}
			{profiles.length ? (
				// Keyed by the selection: a select's defaultValue is read only when it mounts, and the selection changes without one
				// (a new family member, a deleted profile).
				<Form key={profile?.id ?? 'none'} method="get" action={base} className="mt-3 flex flex-wrap items-end gap-3">
					<SelectField
						label="Selected profile"
						className="min-w-64 flex-1"
						selectProps={{
							id: SELECTOR_ID,
							autoFocus: serverFocus,
							name: 'profile',
							defaultValue: String(profile?.id ?? ''),
							onChange: (e) => e.currentTarget.form?.requestSubmit(),
						}}
						options={profiles.map((p) => ({ value: String(p.id), label: selectorLabel(p) }))}
					/>
					<noscript>
						<button type="submit" className={buttonClass('secondary')}>
							Show
						</button>
					</noscript>
				</Form>
			) : (
				<p className="mt-2 text-gray-700">Start by saving your own information under Personal Information below.</p>
			)}
			<div className="mt-4 flex flex-wrap gap-2">
				<Link to={href({ dialog: 'add-family' })} preventScrollReset className={buttonClass('secondary')}>
					Add Family Member
				</Link>
				{profile && isOwner && shown?.qrCodeCount ? (
					<ActionButton
						intent={INTENTS.updateQrCodes}
						label="Update QR Codes"
						pendingLabel="Updating..."
						offline={{ title: 'Error', description: 'Failed to update QR codes' }}
					/>
				) : null}
				{shown?.caregiverId ? (
					<Link to={href({ dialog: 'leave-profile' })} preventScrollReset className={buttonClass('secondary')}>
						Leave
					</Link>
				) : null}
				{profile && isOwner && ownCount > 1 ? (
					<Link
						to={href({ dialog: 'delete-profile' })}
						preventScrollReset
						className={buttonClass('secondary', 'border-red-700 text-red-800')}
					>
						Delete Selected Profile
					</Link>
				) : null}
			</div>
			{shown && !isOwner ? (
				<p className="mt-4 rounded-lg bg-blue-50 p-3 text-gray-900">
					Shared with you by {shown.sharedBy ?? 'its owner'}:{' '}
					{shown.role === 'editor' ? 'you can read and change its medical information.' : 'you can read its medical information.'} What you
					read and change is recorded for its owner.
				</p>
			) : null}
			{profile && isOwner ? <ScanningSwitch isScannable={profile.isScannable} /> : null}
			{dialog === 'leave-profile' && shown?.caregiverId ? (
				<ConfirmDialog
					title="Stop helping keep this profile?"
					closeHref={href()}
					intent={INTENTS.leaveProfile}
					fields={{ profileId: shown.id, id: shown.caregiverId }}
					confirmLabel="Leave"
					pendingLabel="Leaving..."
				>
					<p>You will no longer see {selectorLabel(shown)} or get its alerts. Only its owner can share it with you again.</p>
				</ConfirmDialog>
			) : null}
			{dialog === 'add-family' ? <AddFamilyDialog /> : null}
			{dialog === 'delete-profile' && profile && isOwner ? (
				<ConfirmDialog
					title="Delete this profile?"
					closeHref={href()}
					intent={INTENTS.deleteProfile}
					fields={{ profileId: profile.id }}
					confirmLabel="Delete Profile"
					pendingLabel="Deleting..."
					offline={{ title: 'Error', description: 'Failed to delete profile. Please try again.' }}
				>
					<p>This permanently deletes {profileLabel(profile)} and all of its medical information and files. This cannot be undone.</p>
				</ConfirmDialog>
			) : null}
		</section>
	)
}

function ScanningSwitch({ isScannable }: { isScannable: boolean }) {
	return (
		<div className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg bg-gray-50 p-3">
			<p className="text-gray-800">
				<span className="font-semibold">QR scanning: {isScannable ? 'On' : 'Off'}.</span>{' '}
				{isScannable ? 'Responders who scan this profile’s code see its information.' : 'This information is private from QR scans.'}
			</p>
			<ActionButton
				intent={INTENTS.setScanning}
				label={isScannable ? 'Turn scanning off' : 'Turn scanning on'}
				extra={{ isScannable: isScannable ? 'false' : 'true' }}
			/>
		</div>
	)
}

function AddFamilyDialog() {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.addFamily, FamilyMemberSchema, { defaultValue: { relationshipToUser: 'child' } })
	const pending = useIntentPending(INTENTS.addFamily)
	return (
		<Modal title="Add Family Member Profile" closeHref={href()} start="field" showsErrors={form.status === 'error'}>
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<TextField field={fields.fullName} label="Full name" />
				<ChoiceField field={fields.relationshipToUser} label="Relationship" options={options(RELATIONSHIPS, RELATIONSHIP_LABELS)} />
				<ChoiceField field={fields.gender} label="Gender (optional)" placeholder="Not specified" options={options(FAMILY_GENDERS)} />
				<TextField field={fields.dateOfBirth} label="Date of birth (optional)" type="date" />
				<Field
					label="PIN from their QR code sticker or card"
					errors={fields.pin.errors}
					inputProps={{ ...pinInputProps(fields.pin), className: 'font-mono uppercase tracking-widest' }}
				/>
				<ErrorList id={form.errorId} errors={form.errors} alert />
				<OfflineMessage title="Error" description="Failed to create profile. Please try again." />
				<div className="flex justify-end gap-2">
					<Link to={href()} className={buttonClass('secondary')}>
						Cancel
					</Link>
					<StatusButton intent={INTENTS.addFamily} pending={pending} pendingLabel="Creating...">
						Create Profile
					</StatusButton>
				</div>
			</Form>
		</Modal>
	)
}
