import { Form, Link, type ShouldRevalidateFunction } from 'react-router'
import { RECOVERY_CODE_COUNT } from '#app/domain/admin/owner-two-factor.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { Field, StatusButton, buttonClass } from '#app/ui/forms.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import { RecoveryCodeList } from './recovery-codes.tsx'
import type { Route } from './+types/two-factor'
import { twoFactorAction, twoFactorLoader } from './two-factor.server.ts'
import { pageMeta } from '#app/utils/meta.ts'

export const loader = (args: Route.LoaderArgs) => twoFactorLoader(args)
export const action = (args: Route.ActionArgs) => twoFactorAction(args)

/** The answer holding the recovery codes stays on screen: reloading the page's data would move on to the dashboard. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
	(actionResult as { recoveryCodes?: unknown } | undefined)?.recoveryCodes ? false : defaultShouldRevalidate

function CodeForm({ error, label }: { error?: string | null; label: string }) {
	const pending = useIsPending()
	return (
		<Form method="post" className="space-y-4">
			<Field
				label="Code"
				errors={[error]}
				hint="The 6-digit code your authenticator app shows now, or one of your recovery codes."
				inputProps={{ name: 'code', autoComplete: 'one-time-code', required: true, maxLength: 32, autoFocus: true, spellCheck: false }}
			/>
			<StatusButton type="submit" pending={pending} pendingLabel="Checking…" className="w-full">
				{label}
			</StatusButton>
		</Form>
	)
}

export default function TwoFactor({ loaderData, actionData }: Route.ComponentProps) {
	const pending = useIsPending()
	const errors = actionData?.result?.error
	const error = errors?.code?.[0] ?? Object.values(errors ?? {}).flat()[0]
	if (actionData?.recoveryCodes)
		return (
			<AuthShell title="Two-factor sign-in is on" subtitle="Save these recovery codes now. They are shown only this once.">
				<p className="mb-3 text-gray-800">
					Each of these {RECOVERY_CODE_COUNT} codes signs you in once if your phone is lost. Print them or keep them in a password manager.
				</p>
				<RecoveryCodeList codes={actionData.recoveryCodes} className="mb-6 grid grid-cols-2 gap-2 font-mono text-lg" />
				<Link to={actionData.continueTo ?? '/admin'} className={buttonClass('primary', 'w-full')}>
					I Saved Them: Open the Admin Dashboard
				</Link>
			</AuthShell>
		)
	if (loaderData.step === 'verify')
		return (
			<AuthShell title="Enter your sign-in code" subtitle="The admin area asks for a second factor in each new sign-in.">
				<CodeForm error={error} label="Verify" />
			</AuthShell>
		)
	const { enrolment } = loaderData
	return (
		<AuthShell
			title="Set up two-factor sign-in"
			subtitle="The admin area opens only after a code from an authenticator app (time-based codes, with backup codes)."
		>
			{enrolment ? (
				<div className="space-y-4">
					<p className="text-gray-800">Scan this code with your authenticator app, or type the key below into it.</p>
					<img src={enrolment.qrSvg} alt="QR code for your authenticator app" width={240} height={240} className="mx-auto" />
					<p className="text-gray-800">
						Key: <code className="font-mono break-all text-gray-900">{enrolment.secret}</code>
					</p>
					<CodeForm error={error} label="Confirm and Turn On" />
				</div>
			) : (
				<Form method="post">
					<input type="hidden" name="intent" value="start" />
					<StatusButton type="submit" pending={pending} pendingLabel="Starting…" className="w-full">
						Start Setup
					</StatusButton>
				</Form>
			)}
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Two-factor sign-in')
