import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, Link } from 'react-router'
import type { PublicUser } from '#app/domain/accounts/accounts.server.ts'
import { ChangeEmailSchema, EMAIL_UNCHANGED, ProfileNameSchema } from '#app/domain/accounts/schemas.ts'
import { buttonClass, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { useIntentPending, useIsPending } from '#app/utils/use-is-pending.ts'
import { PROFILE_INTENTS } from './intents.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { NO_CONNECTION } from '#app/utils/network-failure.ts'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'
import { TextField } from '#app/ui/text-field.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'

const HERE = '/dashboard/profile'
type Result = SubmissionResult<string[]> | null | undefined

function Card({ id, title, children, danger }: { id: string; title: string; children: React.ReactNode; danger?: boolean }) {
	return (
		<section aria-labelledby={id} className={`rounded-xl border bg-white p-5 shadow-sm ${danger ? 'border-red-300' : 'border-gray-300'}`}>
			<h2 id={id} className={`mb-3 text-xl font-bold ${danger ? 'text-red-800' : ''}`}>
				{title}
			</h2>
			{children}
		</section>
	)
}

/** Saving the name as it is changes nothing and says so as any save does: the button is never disabled. */
export function NameForm({ user, lastResult }: { user: PublicUser; lastResult: Result }) {
	const pending = useIsPending()
	const saved = { firstName: user.firstName ?? '', lastName: user.lastName ?? '' }
	const [form, fields] = useSchemaForm(ProfileNameSchema, { id: 'name-form', lastResult, defaultValue: saved })
	return (
		<Card id="name-title" title="Your name">
			<Form method="post" {...getFormProps(form)} className="grid gap-4 sm:grid-cols-2">
				<TextField field={fields.firstName} label="First name" autoComplete="given-name" />
				<TextField field={fields.lastName} label="Last name" autoComplete="family-name" />
				<OfflineMessage title="Update Failed" description={NO_CONNECTION.description} />
				<div className="sm:col-span-2">
					<StatusButton intent={PROFILE_INTENTS.updateName} pending={pending} pendingLabel="Saving...">
						Save Changes
					</StatusButton>
				</div>
			</Form>
		</Card>
	)
}

type PendingEmail = { email: string; until: string } | null

export function EmailForm({
	email,
	pending,
	editing,
	lastResult,
}: {
	email: string
	pending: PendingEmail
	editing: boolean
	lastResult: Result
}) {
	const busy = useIntentPending(PROFILE_INTENTS.changeEmail)
	const cancelling = useIntentPending(PROFILE_INTENTS.cancelEmailChange)
	// With JavaScript, the address the account already has is refused before it is sent.
	const schema = ChangeEmailSchema.refine((v) => v.email !== email.toLowerCase(), { message: EMAIL_UNCHANGED, path: ['email'] })
	const [form, fields] = useSchemaForm(schema, { id: 'email-form', lastResult, shouldValidate: 'onSubmit' })
	return (
		<Card id="email-title" title="Email">
			{pending ? (
				<div className="mb-4 rounded-md border border-blue-300 bg-blue-50 p-4 text-gray-900">
					<p>
						We sent a link to <span className="font-semibold">{pending.email}</span>. Your email changes once you open it. The link works
						until {pending.until}.
					</p>
					<Form method="post" action={HERE} className="mt-3">
						<StatusButton intent={PROFILE_INTENTS.cancelEmailChange} variant="secondary" pending={cancelling} pendingLabel="Cancelling...">
							Cancel Email Change
						</StatusButton>
					</Form>
				</div>
			) : null}
			{editing ? (
				<Form method="post" action={HERE} {...getFormProps(form)} className="space-y-3">
					<p className="text-gray-800">
						Current email: <span className="font-semibold">{email}</span>
					</p>
					<TextField
						field={fields.email}
						label="New email"
						type="email"
						autoComplete="email"
						hint="We send a link to the new address. Your email changes once you open it."
					/>
					<OfflineMessage title="Update Failed" description={NO_CONNECTION.description} />
					<ErrorList id={form.errorId} errors={form.errors} alert />
					<div className="flex gap-2">
						<StatusButton intent={PROFILE_INTENTS.changeEmail} pending={busy} pendingLabel="Sending...">
							Save
						</StatusButton>
						<Link to={HERE} className={buttonClass('secondary')} preventScrollReset>
							Cancel
						</Link>
					</div>
				</Form>
			) : (
				<div className="flex flex-wrap items-center justify-between gap-3">
					<p className="text-gray-900">{email}</p>
					<Link to={`${HERE}?edit=email`} className={buttonClass('secondary')} preventScrollReset aria-label="Edit email">
						Edit
					</Link>
				</div>
			)}
		</Card>
	)
}

export function SessionsCard({ lastSignIn }: { lastSignIn: string | null }) {
	const busy = useIntentPending(PROFILE_INTENTS.signOutEverywhere)
	return (
		<Card id="signout-title" title="Sign-ins and sessions">
			<p className="mb-4 text-gray-900">{lastSignIn ?? 'No earlier sign-in is on record.'}</p>
			<p className="mb-3 text-gray-800">Signing out ends this session in every tab of this browser.</p>
			<SignOutForm>
				<StatusButton type="submit" variant="secondary">
					Sign Out
				</StatusButton>
			</SignOutForm>
			<p className="mt-5 mb-3 text-gray-800">
				Signing out everywhere ends every session of your account, on every browser and device, this one included. Use it if you signed in
				on a device that is not yours, or if the last sign-in above was not you.
			</p>
			<Form method="post" action={HERE}>
				<OfflineMessage title="Logout Error" description="There was an issue logging out. Please try again." />
				<StatusButton intent={PROFILE_INTENTS.signOutEverywhere} variant="secondary" pending={busy} pendingLabel="Signing out...">
					Sign Out Everywhere
				</StatusButton>
			</Form>
		</Card>
	)
}

export function DangerZone({ confirming }: { confirming: boolean }) {
	const pending = useIsPending()
	return (
		<Card id="danger-title" title="Danger Zone" danger>
			<p className="mb-3 text-gray-800">
				Deleting your account removes your medical profiles, documents, photos and QR code links for good. It cannot be undone.
			</p>
			<Link to={`${HERE}?dialog=delete-account`} preventScrollReset className={buttonClass('primary')}>
				Delete Account
			</Link>
			{confirming ? (
				<Modal title="Delete your account?" closeHref={HERE} start="close">
					<div className="space-y-3 text-gray-800">
						<p>This permanently deletes:</p>
						<ul className="list-disc space-y-1 pl-6">
							<li>your account, your sign-in and every session;</li>
							<li>every medical profile with its contacts, allergies, medications, conditions, insurance and notes;</li>
							<li>your uploaded documents, photos and insurance cards;</li>
							<li>your QR codes: printed stickers stop showing your information, codes you generated stop working.</li>
						</ul>
						<p>
							Orders and donations stay in the foundation&apos;s records without your name, e-mail or address; orders not yet shipped are
							cancelled.
						</p>
					</div>
					<Form method="post" action={HERE} className="mt-6 flex flex-wrap justify-end gap-2">
						<OfflineMessage title="Deletion Failed" description="Failed to delete account. Please try again." />
						<Link to={HERE} className={buttonClass('secondary')}>
							Cancel
						</Link>
						<StatusButton intent={PROFILE_INTENTS.deleteAccount} pending={pending} pendingLabel="Deleting...">
							Delete My Account
						</StatusButton>
					</Form>
				</Modal>
			) : null}
		</Card>
	)
}
