import { createContext, useContext, useRef, type ReactNode } from 'react'
import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { ConfirmDialog, useFocusAfterChange } from '#app/ui/confirm-dialog.tsx'
import type { Intent } from './intents.ts'
import { useScreen } from './screen-context.tsx'
import { cardClass } from '#app/ui/card.tsx'

/**
 * One section of the screen. When something of it was just deleted or cleared (`?deleted=section` or `section:id`),
 * focus goes to what `focusAfterDelete` finds for that row (the next one), else to the heading, which has the page's
 * first focus without JavaScript.
 */
export function SectionCard({
	id,
	title,
	addLabel,
	addDialog,
	focusAfterDelete,
	children,
}: {
	id: string
	title: string
	addLabel?: string
	addDialog?: string
	focusAfterDelete?: (row: number) => HTMLElement | null | undefined
	children: React.ReactNode
}) {
	const { profile, href, deleted, canEdit } = useScreen()
	const headingRef = useRef<HTMLHeadingElement>(null)
	const gone = deleted === id ? 0 : deleted?.startsWith(`${id}:`) ? Number(deleted.slice(id.length + 1)) : null
	const { serverFocus } = useFocusAfterChange(gone !== null, () => (gone ? focusAfterDelete?.(gone) : null) ?? headingRef.current)
	return (
		<section id={id} aria-labelledby={`${id}-title`} className={cardClass('scroll-mt-4 p-5')}>
			<div className="mb-3 flex flex-wrap items-center justify-between gap-3">
				<h2 ref={headingRef} id={`${id}-title`} tabIndex={-1} autoFocus={serverFocus} className="text-xl font-bold text-gray-900">
					{title}
				</h2>
				{addLabel && addDialog && profile && canEdit ? (
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
	documents: { title: 'Medical Documents', add: undefined, dialog: undefined, empty: 'No medical documents uploaded yet.' },
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
 * the URL opens it, `editForm` when a row is being edited in a dialog, and `footer` (a form of its own). A row's Delete
 * asks first (?delete=…, a dialog that posts `deleteIntent`); once it is gone, focus goes to the next row's first
 * control, or to the heading when none follows (without JavaScript, the heading).
 */
export function ListSection<T extends { id: number }>({
	id,
	rows,
	name,
	deleteIntent,
	addForm,
	editForm,
	footer,
	children,
}: {
	id: keyof typeof LIST_SECTIONS
	rows: (profile: Profile) => readonly T[]
	name: (row: T) => string
	deleteIntent: Intent
	addForm?: ReactNode
	editForm?: ReactNode
	footer?: ReactNode
	children: (row: T) => ReactNode
}) {
	const { profile, dialog, deleting, canEdit } = useScreen()
	const section = LIST_SECTIONS[id]
	const list = profile ? rows(profile) : []
	const removing = list.find((row) => `${id}:${row.id}` === deleting)
	const listRef = useRef<HTMLUListElement>(null)
	// Rows are listed in the order they were added (by id): the next one is the first added after the deleted one.
	const nextRow = (gone: number) =>
		listRef.current?.children[list.findIndex((row) => row.id > gone)]?.querySelector<HTMLElement>('a[href], button')
	return (
		<SectionCard id={id} title={section.title} addLabel={section.add} addDialog={section.dialog} focusAfterDelete={nextRow}>
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
			{canEdit ? footer : null}
			{canEdit && section.dialog && dialog === section.dialog ? addForm : null}
			{canEdit ? editForm : null}
			{canEdit && removing ? (
				<AskFirst what={`${id}:${removing.id}`} title={`Delete ${name(removing)}?`} intent={deleteIntent} id={removing.id}>
					<p>Responders who scan this profile’s QR code will no longer see it. This cannot be undone.</p>
				</AskFirst>
			) : null}
		</SectionCard>
	)
}

/**
 * What a Delete or Clear link of the screen opens (`?delete=what`: a row, `section:id`, or a section's one value):
 * the question, whose way out leads back to that link (the browser focuses a fragment's target).
 */
export function AskFirst({
	what,
	title,
	intent,
	id,
	confirmLabel = 'Delete',
	pendingLabel = 'Deleting...',
	children,
}: {
	what: string
	title: string
	intent: Intent
	id?: number
	confirmLabel?: string
	pendingLabel?: string
	children: ReactNode
}) {
	const { profileId, href } = useScreen()
	if (!profileId) return null
	return (
		<ConfirmDialog
			title={title}
			closeHref={href({}, askLinkId(what))}
			intent={intent}
			fields={id ? { profileId, id } : { profileId }}
			confirmLabel={confirmLabel}
			pendingLabel={pendingLabel}
		>
			{children}
		</ConfirmDialog>
	)
}

/** The id of the link that asks: the question's way out leads back to it. */
const askLinkId = (what: string) => `delete-${what.replace(':', '-')}`

/** A link to the question that comes before a Delete or Clear (`AskFirst`). */
export function AskLink({ what, label, accessibleName }: { what: string; label: string; accessibleName?: string }) {
	const { href } = useScreen()
	return (
		<Link
			id={askLinkId(what)}
			to={href({ delete: what })}
			preventScrollReset
			className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}
			aria-label={accessibleName}
		>
			{label}
		</Link>
	)
}

/** A row's Delete, named for screen readers ("Delete allergy Penicillin"). */
export function DeleteLink() {
	const { key, name } = useRow()
	return <AskLink what={key} label="Delete" accessibleName={`Delete ${name}`} />
}

/** One row of a list section: what it records, then its buttons. */
export function SectionRow({ actions, className, children }: { actions: ReactNode; className?: string; children: ReactNode }) {
	const { canEdit } = useScreen()
	return (
		<li className="flex flex-wrap items-center justify-between gap-3 py-3">
			<div className={className}>{children}</div>
			{canEdit ? actions : null}
		</li>
	)
}
