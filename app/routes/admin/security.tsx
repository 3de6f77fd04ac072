import { Form } from 'react-router'
import { SECURITY_COMPLETE_MESSAGE } from '#app/domain/admin/security-items.ts'
import { cardClass } from '#app/ui/card.tsx'
import { Field, buttonClass } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/security'
import { PostButton } from './post-button.tsx'
import { RecoveryCodeList } from './recovery-codes.tsx'
import { securityAction, securityLoader } from './security.server.ts'

export const loader = (args: Route.LoaderArgs) => securityLoader(args)
export const action = (args: Route.ActionArgs) => securityAction(args)

const small = 'min-h-10 px-3 py-1.5 text-sm'

function CodeAction({ intent, label, error }: { intent: string; label: string; error?: string | null }) {
	return (
		<Form method="post" className="flex flex-wrap items-end gap-2">
			<input type="hidden" name="intent" value={intent} />
			<Field
				label="Current code"
				errors={[error]}
				inputProps={{ name: 'code', autoComplete: 'one-time-code', required: true, maxLength: 32, id: `${intent}-code` }}
			/>
			<button type="submit" className={buttonClass('secondary', small)}>
				{label}
			</button>
		</Form>
	)
}

export default function SecurityTab({ loaderData, actionData }: Route.ComponentProps) {
	const { checklist, twoFactor, isOwnerAccount } = loaderData
	const errors = actionData?.result?.error
	const codeError = (intent: string) => (actionData?.intent === intent ? errors?.code?.[0] : null)
	// A refused tick, or a form the page does not know: said above the checklist.
	const refused = actionData?.intent === 'recovery-codes' || actionData?.intent === 'disable' ? null : Object.values(errors ?? {}).flat()[0]
	return (
		<section aria-labelledby="security-title" className="space-y-4">
			<h2 id="security-title" className="text-2xl font-bold text-gray-900">
				Security
			</h2>
			{refused ? (
				<p role="alert" className="font-semibold text-red-700">
					{refused}
				</p>
			) : null}
			<div className={cardClass('space-y-3 p-4')}>
				<p className="font-semibold text-gray-900">
					{checklist.completed} of {checklist.total} complete ({checklist.percent}%)
				</p>
				<div
					role="progressbar"
					aria-label="Security checklist"
					aria-valuenow={checklist.percent}
					aria-valuemin={0}
					aria-valuemax={100}
					className="h-3 rounded-full bg-gray-200"
				>
					<div className="h-3 rounded-full bg-green-700" style={{ width: `${checklist.percent}%` }} />
				</div>
				{checklist.percent === 100 ? <p className="font-semibold text-green-800">{SECURITY_COMPLETE_MESSAGE}</p> : null}
				<ul className="space-y-3">
					{checklist.items.map((item) => (
						<li key={item.id} className="flex flex-wrap items-start justify-between gap-3 border-t border-gray-200 pt-3">
							<div>
								<p className="font-semibold">
									<span aria-hidden="true">{item.complete ? '✓ ' : '○ '}</span>
									{item.title}
									<span className="sr-only">{item.complete ? ' (complete)' : ' (not complete)'}</span>
								</p>
								<p className="text-sm text-gray-700">{item.description}</p>
								{item.finding ? (
									<p className={item.complete ? 'text-sm text-gray-900' : 'text-sm font-semibold text-red-800'}>
										{item.complete ? null : <span aria-hidden="true">⚠ </span>}
										{item.finding}
									</p>
								) : null}
								<p className="text-xs text-gray-600">{item.automatic ? 'Checked by the server' : 'Ticked by you'}</p>
							</div>
							{item.automatic ? null : (
								<PostButton
									fields={{ intent: 'checklist', id: item.id, done: String(!item.complete) }}
									buttonClassName={buttonClass('secondary', small)}
								>
									{item.complete ? 'Mark as not done' : 'Mark as done'}
								</PostButton>
							)}
						</li>
					))}
				</ul>
			</div>
			{isOwnerAccount && twoFactor.enabled ? (
				<div className={cardClass('space-y-3 p-4')}>
					<h3 className="text-lg font-bold">Two-factor sign-in</h3>
					<p>
						On since {formatEtTime(twoFactor.enabledAt)}; {twoFactor.recoveryCodesLeft} recovery codes left.
					</p>
					{actionData?.recoveryCodes ? (
						<div role="status">
							<p className="font-semibold">New recovery codes (the old ones no longer work). Save them now:</p>
							<RecoveryCodeList codes={actionData.recoveryCodes} className="mt-2 grid grid-cols-2 gap-2 font-mono sm:grid-cols-5" />
						</div>
					) : null}
					<CodeAction intent="recovery-codes" label="New Recovery Codes" error={codeError('recovery-codes')} />
					<CodeAction intent="disable" label="Turn Off Two-Factor" error={codeError('disable')} />
				</div>
			) : null}
		</section>
	)
}
