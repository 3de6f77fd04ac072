import { createContext, useContext, useRef, type ReactNode, type Ref } from 'react'
import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { ConfirmDialog, useFocusAfterChange } from '#app/ui/confirm-dialog.tsx'
import type { Intent } from './intents.ts'
import { useScreen } from './screen-context.tsx'
import { cardClass } from '#app/ui/card.tsx'

export function SectionCard({
	id,
	title,
	addLabel,
	addDialog,
	headingRef,
	focusHeading = false,
	children,
}: {
	id: string
	title: string
	addLabel?: string
	addDialog?: string
	/** The heading takes focus when the section's last row was deleted (`focusHeading`: the page's first focus). */
	headingRef?: Ref<HTMLHeadingElement>
	focusHeading?: boolean
	children: React.ReactNode
}) {
	const { profile, href } = useScreen()
	return (
		<section id={id} aria-labelledby={`${id}-title`} className={cardClass('scroll-mt-4 p-5')}>
			<div className="mb-3 flex flex-wrap items-center justify-between gap-3">
				<h2 ref={headingRef} id={`${id}-title`} tabIndex={-1} autoFocus={focusHeading} className="text-xl font-bold text-gray-900">
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

/** The row being drawn, for its Edit and Delete controls: which it is (`section:id`) and its name ("allergy Penicillin"). */
const RowContext = createContext<{ section: string; key: string; name: string } | null>(null)
export function useRow() {
	const row = useContext(RowContext)
	if (!row) throw new Error('useRow outside a list section row')
	return row
}

/**
 * A section listing rows of the profile: each row (or a sentence saying there are none yet), then the Add dialog while
 * the URL opens it, and `editForm` when a row is being edited in a dialog. A row's Delete asks first (?delete=…, a
 * dialog that posts `deleteIntent`); once it is gone, focus goes to the next row's first control, or to the heading
 * when none follows (without JavaScript, the heading).
 */
export function ListSection<T extends { id: number }>({
	id,
	rows,
	name,
	deleteIntent,
	addForm,
	editForm,
	children,
}: {
	id: keyof typeof LIST_SECTIONS
	rows: (profile: Profile) => readonly T[]
	name: (row: T) => string
	deleteIntent: Intent
	addForm: ReactNode
	editForm?: ReactNode
	children: (row: T) => ReactNode
}) {
	const { profile, dialog, deleting, deleted, href } = useScreen()
	const section = LIST_SECTIONS[id]
	const list = profile ? rows(profile) : []
	const removing = list.find((row) => `${id}:${row.id}` === deleting)
	const gone = deleted?.startsWith(`${id}:`) ? Number(deleted.slice(id.length + 1)) : null
	const listRef = useRef<HTMLUListElement>(null)
	const headingRef = useRef<HTMLHeadingElement>(null)
	const { serverFocus } = useFocusAfterChange(gone !== null, () => {
		// Rows are listed in the order they were added (by id): the next one is the first added after the deleted one.
		const next = listRef.current?.children[list.findIndex((row) => row.id > (gone ?? 0))]
		return next?.querySelector<HTMLElement>('a[href], button') ?? headingRef.current
	})
	return (
		<SectionCard
			id={id}
			title={section.title}
			addLabel={section.add}
			addDialog={section.dialog}
			headingRef={headingRef}
			focusHeading={serverFocus}
		>
			{list.length ? (
				<ul ref={listRef} className="divide-y divide-gray-200">
					{list.map((row) => (
						<RowContext.Provider key={row.id} value={{ section: id, key: `${id}:${row.id}`, name: name(row) }}>
							{children(row)}
						</RowContext.Provider>
					))}
				</ul>
			) : (
				<EmptyState>{section.empty}</EmptyState>
			)}
			{dialog === section.dialog ? addForm : null}
			{editForm}
			{removing && profile ? (
				<ConfirmDialog
					title={`Delete ${name(removing)}?`}
					closeHref={href({}, deleteLinkId(`${id}:${removing.id}`))}
					intent={deleteIntent}
					fields={{ profileId: profile.id, id: removing.id }}
					confirmLabel="Delete"
					pendingLabel="Deleting..."
				>
					<p>Responders who scan this profile’s QR code will no longer see it. This cannot be undone.</p>
				</ConfirmDialog>
			) : null}
		</SectionCard>
	)
}

/** The id of a row's Delete: the question's way out leads back to it (the browser focuses a fragment's target). */
const deleteLinkId = (key: string) => `delete-${key.replace(':', '-')}`

/** A row's Delete: a link to the question that comes first, named for screen readers ("Delete allergy Penicillin"). */
export function DeleteLink() {
	const { href } = useScreen()
	const { key, name } = useRow()
	return (
		<Link
			id={deleteLinkId(key)}
			to={href({ delete: key })}
			preventScrollReset
			className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}
			aria-label={`Delete ${name}`}
		>
			Delete
		</Link>
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
