import {
	CAREGIVER_ROLE_LABELS,
	CAREGIVER_ROLE_NAMES,
	CaregiverInviteSchema,
	MAX_CAREGIVERS,
} from '#app/domain/profiles/caregiver-schemas.ts'
import { scannerLabel, scanPlace } from '#app/domain/qr/scans.ts'
import { ErrorList, options, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'
import { formatDate, formatEtTime } from '#app/utils/dates.ts'
import { CAREGIVER_ROLES } from '#db/schema/values.ts'
import { INTENTS } from './intents.ts'
import { Form, getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { AskFirst, AskLink, EmptyState, SectionCard } from './section-card.tsx'

const STATUS = {
	active: (c: { acceptedAt: string | null }) => `Helping since ${c.acceptedAt ? formatDate(c.acceptedAt) : 'now'}`,
	pending: (c: { expiresAt: string }) => `Invitation waiting, until ${formatDate(c.expiresAt)}`,
	expired: () => 'Invitation expired: revoke it and invite again',
} as const

/** For the profile's owner: who helps keep it (and invitations waiting), each with Revoke, and the invitation form. */
export function CaregiversSection() {
	const { profile, caregivers, deleting } = useScreen()
	if (!profile || !caregivers) return null
	const revoking = caregivers.find((c) => `caregivers:${c.id}` === deleting)
	return (
		<SectionCard id="caregivers" title="Caregivers">
			<p className="mb-3 text-gray-800">
				Invite someone to help keep this profile. An editor reads and changes its medical information and sees its scan history; a viewer
				reads it. Both get its alerts. What they read and change is in your access record, under their name.
			</p>
			{caregivers.length ? (
				<ul className="divide-y divide-gray-200">
					{caregivers.map((c) => (
						<li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
							<div>
								<p className="font-semibold break-all">{c.name ? `${c.name} <${c.email}>` : c.email}</p>
								<p className="text-gray-700">
									{CAREGIVER_ROLE_NAMES[c.role]} · {STATUS[c.status](c)}
								</p>
							</div>
							<AskLink what={`caregivers:${c.id}`} label="Revoke" accessibleName={`Revoke ${c.email}`} />
						</li>
					))}
				</ul>
			) : (
				<EmptyState>Nobody else helps keep this profile yet.</EmptyState>
			)}
			<InviteForm full={caregivers.length >= MAX_CAREGIVERS} />
			{revoking ? (
				<AskFirst
					what={`caregivers:${revoking.id}`}
					title={`Revoke ${revoking.email}?`}
					intent={INTENTS.revokeCaregiver}
					id={revoking.id}
					confirmLabel="Revoke"
					pendingLabel="Revoking..."
				>
					<p>
						{revoking.status === 'active'
							? 'They will no longer see or change this profile, or get its alerts, from their next page on.'
							: 'The invitation’s link will stop working.'}
					</p>
				</AskFirst>
			) : null}
		</SectionCard>
	)
}

function InviteForm({ full }: { full: boolean }) {
	const [form, fields] = useSectionForm(INTENTS.inviteCaregiver, CaregiverInviteSchema, { defaultValue: { role: 'viewer' } })
	const pending = useIntentPending(INTENTS.inviteCaregiver)
	return (
		<Form method="post" preventScrollReset {...getFormProps(form)} className="mt-4 grid gap-3 sm:grid-cols-2">
			<h3 className="font-semibold sm:col-span-2">Invite a caregiver</h3>
			<HiddenIds />
			<TextField field={fields.email} label="Their email" type="email" autoComplete="off" />
			<ChoiceField field={fields.role} label="Role" options={options(CAREGIVER_ROLES, CAREGIVER_ROLE_LABELS)} />
			{full ? (
				<p className="text-gray-700 sm:col-span-2">
					This profile has {MAX_CAREGIVERS} caregivers and invitations, the most it can have: revoke one to invite someone else.
				</p>
			) : null}
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<OfflineMessage title="Error" description="Failed to send the invitation. Please try again." />
			<div className="sm:col-span-2">
				<StatusButton intent={INTENTS.inviteCaregiver} pending={pending} pendingLabel="Sending...">
					Send Invitation
				</StatusButton>
			</div>
		</Form>
	)
}

/** For an editor of a shared profile: the latest scans of its codes (the owner sees them on the QR Codes tab). */
export function SharedScansSection() {
	const { profile, scans } = useScreen()
	if (!profile || !scans) return null
	return (
		<SectionCard id="scans" title="Scan History">
			{scans.length ? (
				<ul className="divide-y divide-gray-200">
					{scans.map((scan) => (
						<li key={scan.id} className="py-2">
							<p>
								{formatEtTime(scan.scannedAt)} · {scannerLabel(scan.scannerType)} · {scanPlace(scan)}
							</p>
							<p className="text-gray-700">
								Emergency access: {scan.isEmergencyAccess ? 'Yes' : 'No'}
								{scan.medicalFacility ? ` · Medical facility: ${scan.medicalFacility}` : ''}
							</p>
						</li>
					))}
				</ul>
			) : (
				<EmptyState>This profile’s codes have not been scanned yet.</EmptyState>
			)}
		</SectionCard>
	)
}
