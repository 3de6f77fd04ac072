import { Fragment, type ReactNode } from 'react'
import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { useScreen } from './screen-context.tsx'
import { cardClass } from '#app/ui/card.tsx'

export function SectionCard({
	id,
	title,
	addLabel,
	addDialog,
	children,
}: {
	id: string
	title: string
	addLabel?: string
	addDialog?: string
	children: React.ReactNode
}) {
	const { profile, href } = useScreen()
	return (
		<section id={id} aria-labelledby={`${id}-title`} className={cardClass('scroll-mt-4 p-5')}>
			<div className="mb-3 flex flex-wrap items-center justify-between gap-3">
				<h2 id={`${id}-title`} className="text-xl font-bold text-gray-900">
					{title}
				</h2>
				{addLabel && addDialog && profile ? (
					<Link to={href({ dialog: addDialog })} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}>
						{addLabel}
					</Link>
				) : null}
			</div>
			{profile || id === 'personal' ? children : <p className="text-gray-700">Please save your medical profile first.</p>}
		</section>
	)
}

export function EmptyState({ children }: { children: React.ReactNode }) {
	return <p className="text-gray-700">{children}</p>
}

/** The sections that list rows of the profile: their title, their Add button and dialog, and what they say while empty. */
const LIST_SECTIONS = {
	contacts: { title: 'Emergency Contacts', add: 'Add Contact', dialog: 'add-contact', empty: 'No emergency contacts added yet.' },
	allergies: { title: 'Allergies', add: 'Add Allergy', dialog: 'add-allergy', empty: 'No allergies recorded yet.' },
	medications: { title: 'Current Medications', add: 'Add Medication', dialog: 'add-medication', empty: 'No medications recorded yet.' },
	conditions: { title: 'Medical Conditions', add: 'Add Condition', dialog: 'add-condition', empty: 'No medical conditions recorded yet.' },
	insurance: { title: 'Insurance Policies', add: 'Add Policy', dialog: 'add-policy', empty: 'No insurance policies recorded yet.' },
} as const

type Profile = NonNullable<ReturnType<typeof useScreen>['profile']>

/**
 * A section listing rows of the profile: each row (or a sentence saying there are none yet), then the Add dialog while
 * the URL opens it, and `editForm` when a row is being edited in a dialog.
 */
export function ListSection<T extends { id: number }>({
	id,
	rows,
	addForm,
	editForm,
	children,
}: {
	id: keyof typeof LIST_SECTIONS
	rows: (profile: Profile) => readonly T[]
	addForm: ReactNode
	editForm?: ReactNode
	children: (row: T) => ReactNode
}) {
	const { profile, dialog } = useScreen()
	const section = LIST_SECTIONS[id]
	const list = profile ? rows(profile) : []
	return (
		<SectionCard id={id} title={section.title} addLabel={section.add} addDialog={section.dialog}>
			{list.length ? (
				<ul className="divide-y divide-gray-200">
					{list.map((row) => (
						<Fragment key={row.id}>{children(row)}</Fragment>
					))}
				</ul>
			) : (
				<EmptyState>{section.empty}</EmptyState>
			)}
			{dialog === section.dialog ? addForm : null}
			{editForm}
		</SectionCard>
	)
}

/** One row of a list section: what it records, then its buttons. */
export function SectionRow({ actions, className, children }: { actions: ReactNode; className?: string; children: ReactNode }) {
	return (
		<li className="flex flex-wrap items-center justify-between gap-3 py-3">
			<div className={className}>{children}</div>
			{actions}
		</li>
	)
}
