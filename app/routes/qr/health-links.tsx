import type { SubmissionResult } from '@conform-to/react'
import { Link as RouterLink, useActionData } from 'react-router'
import type { HealthLinkState } from '#app/domain/sharing/health-links.server.ts'
import { HEALTH_LINK_INTENTS, IPS_DOWNLOAD_LABEL, ipsHref } from '#app/domain/sharing/options.ts'
import { cardClass } from '#app/ui/card.tsx'
import { useFocusAfterChange } from '#app/ui/confirm-dialog.tsx'
import { cx } from '#app/ui/cx.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { CreateForm } from './health-link-form.tsx'
import { LinkText } from './health-link-text.tsx'
import { RevokeQuestion, revokeLinkId, useLinkParam, useRevokeHref } from './health-link-revoke.tsx'
import type { HealthLinkCard } from './health-links.server.ts'

type Link = HealthLinkCard['links'][number]
/** A refused SMART Health Link form comes back with the profile it was for: only that profile's form shows it. */
type ActionData = { intent?: string; profileId?: number | null; result?: SubmissionResult<string[]> }

const STATES: Record<HealthLinkState, { label: string; className: string }> = {
	active: { label: 'Active', className: 'bg-green-100 text-green-900' },
	revoked: { label: 'Revoked', className: 'bg-gray-200 text-gray-800' },
	expired: { label: 'Expired', className: 'bg-gray-200 text-gray-800' },
	locked: { label: 'Locked: too many wrong passcodes', className: 'bg-red-100 text-red-900' },
}
const small = 'min-h-9 px-3 py-1 text-sm'

/**
 * Per profile: the International Patient Summary to download, a form that makes a SMART Health Link (label, passcode,
 * expiry), and the profile's links with their QR codes, text, use and a Revoke link. Revoking asks first (?revoke=…, a
 * dialog); the revoked link then has focus (?revoked=…). Plain forms and links: they work without JavaScript, which
 * only adds checks as one types and a Copy button.
 */
export function HealthLinks({ cards }: { cards: readonly HealthLinkCard[] }) {
	const actionData = useActionData() as ActionData | undefined
	const asked = useLinkParam('revoke')
	const revoking = cards.flatMap((card) => card.links).find((link) => link.id === asked && link.state === 'active')
	if (cards.length === 0) return null
	return (
		<div id="health-links" className="scroll-mt-4 space-y-6">
			{cards.map((card) => (
				<ProfileHealthLinks
					key={card.profileId}
					card={card}
					titled={cards.length > 1}
					lastResult={
						actionData?.intent === HEALTH_LINK_INTENTS.create && actionData.profileId === card.profileId ? actionData.result : undefined
					}
				/>
			))}
			{revoking ? <RevokeQuestion link={revoking} /> : null}
		</div>
	)
}

function ProfileHealthLinks({
	card,
	titled,
	lastResult,
}: {
	card: HealthLinkCard
	titled: boolean
	lastResult?: SubmissionResult<string[]>
}) {
	const { profileId, name, links } = card
	const title = `shl-title-${profileId}`
	const active = links.filter((link) => link.state === 'active').length
	return (
		<section aria-labelledby={title} className={cardClass('p-5')}>
			<h2 id={title} className="text-xl font-bold">
				SMART Health Link{titled ? `: ${name}` : ''}
			</h2>
			<p className="mt-1 text-gray-700">
				A SMART Health Link lets a clinician’s app fetch this profile’s International Patient Summary (allergies, medications, problems and
				advance directives), encrypted, from the link or its QR code, for as long as you let it. It is for sharing with care teams; the QR
				code responders scan stays as it is.
			</p>
			<p className="mt-3">
				<a href={ipsHref(profileId)} download className="font-semibold text-blue-800 underline">
					{IPS_DOWNLOAD_LABEL}
				</a>
			</p>
			<CreateForm profileId={profileId} lastResult={lastResult} active={active} />
			{links.length ? (
				<ul className="mt-5 space-y-4" aria-label={`SMART Health Links of ${name}`}>
					{links.map((link) => (
						<LinkItem key={link.id} link={link} />
					))}
				</ul>
			) : (
				<p className="mt-4 text-gray-700">No SMART Health Links yet.</p>
			)}
		</section>
	)
}

function LinkItem({ link }: { link: Link }) {
	const name = link.label ?? 'Untitled link'
	const title = `shl-link-${link.id}`
	const state = STATES[link.state]
	const revokeHref = useRevokeHref()
	// Just revoked: focus is on the link's name and state, which now says so.
	const revoked = useLinkParam('revoked') === link.id
	const { serverFocus } = useFocusAfterChange(revoked, () => document.getElementById(`${title}-state`))
	return (
		<li className="rounded-lg border border-gray-300 p-4">
			<div className="flex flex-wrap gap-4">
				{link.qrSvg ? (
					<div
						role="img"
						aria-label={`QR code of the SMART Health Link ${name}`}
						className="w-56 max-w-full shrink-0 [&>svg]:h-auto [&>svg]:w-full"
						dangerouslySetInnerHTML={{ __html: link.qrSvg }}
					/>
				) : null}
				<div className="min-w-48 flex-1 space-y-2">
					<p id={`${title}-state`} tabIndex={-1} autoFocus={serverFocus} className="font-semibold">
						<span id={title}>{name}</span>{' '}
						<span className={cx('rounded px-2 text-sm font-medium whitespace-nowrap', state.className)}>{state.label}</span>
					</p>
					<dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
						<dt className="text-gray-700">{link.state === 'expired' ? 'Expired' : 'Expires'}</dt>
						<dd>{link.expires ?? 'Never'}</dd>
						<dt className="text-gray-700">Passcode</dt>
						<dd>{link.hasPasscode ? `Yes (${link.attemptsLeft ?? 0} wrong tries left)` : 'No'}</dd>
						<dt className="text-gray-700">Opened</dt>
						<dd>{link.accessCount === 1 ? '1 time' : `${link.accessCount} times`}</dd>
						<dt className="text-gray-700">Last opened</dt>
						<dd>{link.lastOpened ?? 'Never'}</dd>
						{link.revoked ? (
							<>
								<dt className="text-gray-700">Revoked on</dt>
								<dd>{link.revoked}</dd>
							</>
						) : null}
					</dl>
					{link.shlink ? <LinkText id={`shl-text-${link.id}`} text={link.shlink} /> : null}
					{link.state === 'active' ? (
						<RouterLink
							id={revokeLinkId(link.id)}
							to={revokeHref(link.id)}
							preventScrollReset
							className={buttonClass('secondary', cx(small, 'border-red-700 text-red-800'))}
							aria-describedby={title}
						>
							Revoke
						</RouterLink>
					) : null}
				</div>
			</div>
		</li>
	)
}
