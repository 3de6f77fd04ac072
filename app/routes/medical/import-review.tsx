import type { SubmissionResult } from '@conform-to/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { DNR_LABELS } from '#app/domain/profiles/labels.ts'
import type { ImportView } from '#app/domain/sharing/import-proposal.ts'
import { IMPORT_INTENTS, importHref } from '#app/domain/sharing/options.ts'
import { buttonClass, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import { screenHref } from './intents.ts'

type Item = { id: string; duplicate: boolean; problem: string | null; selected: boolean }
const ALREADY = 'Already in the profile'

const details = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(' · ')
const dnrLabel = (status: string | null) => (status ? (DNR_LABELS[status as keyof typeof DNR_LABELS] ?? status) : 'Not set')

/**
 * The summary's items beside what the profile holds, kind by kind, each with a box: new ones ticked, ones the profile
 * already has unticked and said to be there, ones that cannot be added as they are explained without a box. Nothing is
 * saved until “Add the chosen items”.
 */
export function ImportReview({
	profile,
	review,
	lastResult,
}: {
	profile: { id: number; name: string }
	review: { proposal: ImportView; carried: string }
	lastResult?: SubmissionResult<string[]>
}) {
	const { proposal } = review
	const errors = [...(lastResult?.error?.[''] ?? []), ...(lastResult?.error?.accept ?? []), ...(lastResult?.error?.bundle ?? [])]
	// After a refused confirmation the boxes come back as they were sent.
	const sent = lastResult?.initialValue?.accept
	const ticked = lastResult ? new Set(typeof sent === 'string' ? [sent] : Array.isArray(sent) ? sent : []) : null
	const isTicked = (item: Item) => (ticked ? ticked.has(item.id) : item.selected)
	const heading = useRef<HTMLHeadingElement>(null)
	const hydrated = useHydrated()
	const pending = useIntentPending(IMPORT_INTENTS.confirm)
	useEffect(() => {
		if (!errors.length) heading.current?.focus()
		// Once, when the review appears.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [])
	const row = (item: Item, label: ReactNode, more: string | null) => (
		<ItemBox key={item.id} item={item} label={label} more={more} checked={isTicked(item)} />
	)
	return (
		<section aria-labelledby="import-review-title" className="space-y-5">
			<h2 id="import-review-title" ref={heading} tabIndex={-1} autoFocus={!hydrated && !errors.length} className="text-xl font-bold">
				Review what to add to {profile.name}
			</h2>
			<p className="text-gray-800">
				Nothing is saved yet. Ticked items are added when you press “Add the chosen items”; what the profile already holds stays as it is.
			</p>
			<Form method="post" encType="multipart/form-data" action={importHref(profile.id)} className="space-y-6">
				<input type="hidden" name="bundle" value={review.carried} />
				<OfflineMessage title="Error" description="The chosen items could not be added. Please try again." />
				<ErrorList errors={errors} alert />
				<Kind
					title="Allergies"
					found={proposal.allergies.map((a) =>
						row(a, <b>{a.allergen ?? 'An allergy without a name'}</b>, details(a.severity, a.reaction && `reaction: ${a.reaction}`)),
					)}
					held={proposal.current.allergies.map((a) => [a.allergen, details(a.severity, a.reaction)])}
				/>
				<Kind
					title="Medications"
					found={proposal.medications.map((m) =>
						row(
							m,
							<b>{m.name ?? 'A medication without a name'}</b>,
							details(m.dosage, m.frequency, m.startDate && `since ${formatDate(m.startDate)}`),
						),
					)}
					held={proposal.current.medications.map((m) => [m.name, details(m.dosage, m.frequency)])}
				/>
				<Kind
					title="Medical conditions"
					found={proposal.conditions.map((c) =>
						row(
							c,
							<b>{c.condition ?? 'A condition without a name'}</b>,
							details(c.status, c.diagnosedDate && `diagnosed ${formatDate(c.diagnosedDate)}`, c.notes),
						),
					)}
					held={proposal.current.conditions.map((c) => [c.condition, details(c.status, c.notes)])}
				/>
				{proposal.dnrStatus ? (
					<Kind
						title="DNR status"
						found={[
							row(
								proposal.dnrStatus,
								<>
									Set the DNR status to <b>{dnrLabel(proposal.dnrStatus.proposed)}</b>
								</>,
								null,
							),
						]}
						held={[[dnrLabel(proposal.current.dnrStatus), null]]}
					/>
				) : null}
				<div className="flex flex-wrap items-center gap-3">
					<StatusButton intent={IMPORT_INTENTS.confirm} pending={pending} pendingLabel="Adding...">
						Add the chosen items
					</StatusButton>
					<Link to={screenHref('/medical-info', { profile: profile.id })} className={buttonClass('secondary')}>
						Cancel
					</Link>
					<Link to={importHref(profile.id)} className="font-semibold text-blue-800 underline">
						Read another summary
					</Link>
				</div>
			</Form>
		</section>
	)
}

/** One kind: what the summary has (with boxes) beside what the profile holds. Left out when the summary has none. */
function Kind({ title, found, held }: { title: string; found: ReactNode[]; held: Array<[string, string | null]> }) {
	if (!found.length) return null
	const id = `import-${title.toLowerCase().replace(/\W+/g, '-')}`
	return (
		<section aria-labelledby={id} className="rounded-lg border border-gray-300 p-4">
			<h3 id={id} className="mb-3 text-lg font-bold">
				{title}
			</h3>
			<div className="grid gap-4 sm:grid-cols-2">
				<fieldset className="min-w-0">
					<legend className="mb-2 font-semibold text-gray-800">From the summary</legend>
					<ul className="space-y-3">{found}</ul>
				</fieldset>
				<div className="min-w-0">
					<h4 className="mb-2 font-semibold text-gray-800">In the profile now</h4>
					{held.length ? (
						<ul className="space-y-2">
							{held.map(([name, more], i) => (
								<li key={i} className="break-words">
									{name}
									{more ? <span className="block text-sm text-gray-700">{more}</span> : null}
								</li>
							))}
						</ul>
					) : (
						<p className="text-gray-700">None yet.</p>
					)}
				</div>
			</div>
		</section>
	)
}

function ItemBox({ item, label, more, checked }: { item: Item; label: ReactNode; more: string | null; checked: boolean }) {
	const id = `accept-${item.id}`
	if (item.problem)
		return (
			<li className="break-words">
				<p>{label}</p>
				{more ? <p className="text-sm text-gray-700">{more}</p> : null}
				<p className="text-sm font-medium text-red-700">Cannot be added: {item.problem}</p>
			</li>
		)
	return (
		<li className="flex items-start gap-3 break-words">
			<input
				type="checkbox"
				name="accept"
				value={item.id}
				id={id}
				defaultChecked={checked}
				className="mt-1 size-5 shrink-0 accent-red-700"
			/>
			<label htmlFor={id} className="min-w-0">
				{label}
				{more ? <span className="block text-sm text-gray-700">{more}</span> : null}
				{item.duplicate ? (
					<span className="mt-1 inline-block rounded bg-gray-100 px-2 text-sm font-medium text-gray-800">{ALREADY}</span>
				) : null}
			</label>
		</li>
	)
}
