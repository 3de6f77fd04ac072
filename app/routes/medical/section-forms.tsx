import type { FormMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { buttonClass, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { ActionButton, getFormProps, HiddenIds, useIntentPending, useScreen } from './screen-context.tsx'

type ConformForm<Schema extends Record<string, unknown>> = FormMetadata<Schema, string[]>
const small = 'min-h-9 px-3 py-1 text-sm'

export function DialogButtons({
	intent,
	label,
	pending,
	cancelHref,
}: {
	intent: string
	label: string
	pending: boolean
	cancelHref: string
}) {
	return (
		<div className="flex justify-end gap-2 pt-2">
			<Link to={cancelHref} preventScrollReset className={buttonClass('secondary')}>
				Cancel
			</Link>
			<StatusButton intent={intent} pending={pending} pendingLabel="Saving...">
				{label}
			</StatusButton>
		</div>
	)
}

/**
 * The add (or edit) dialog of a medical section: the form posts its intent for the selected profile, shows the form's
 * own errors, and Cancel returns to the section. `grid` lays the fields out in two columns.
 */
export function SectionDialog<Schema extends Record<string, unknown>>({
	title,
	section,
	intent,
	label,
	form,
	id,
	multipart = false,
	grid = false,
	children,
}: {
	title: string
	section: string
	intent: string
	label: string
	form: ConformForm<Schema>
	id?: number
	multipart?: boolean
	grid?: boolean
	children: ReactNode
}) {
	const { href } = useScreen()
	const pending = useIntentPending(intent)
	const cancelHref = href({}, section)
	const footer = (
		<>
			<ErrorList id={form.errorId} errors={form.errors} alert />
			<DialogButtons intent={intent} label={label} pending={pending} cancelHref={cancelHref} />
		</>
	)
	return (
		<Modal title={title} closeHref={cancelHref} showsErrors={form.status === 'error'}>
			<Form
				method="post"
				encType={multipart ? 'multipart/form-data' : undefined}
				preventScrollReset
				{...getFormProps(form)}
				className={grid ? 'grid gap-3 sm:grid-cols-2' : 'space-y-4'}
			>
				<HiddenIds id={id} />
				{children}
				{grid ? <div className="sm:col-span-2">{footer}</div> : footer}
			</Form>
		</Modal>
	)
}

/** A row of a medical section edited in place: its fields, Save, and Cancel back to the list. */
export function EditRowForm<Schema extends Record<string, unknown>>({
	section,
	intent,
	id,
	form,
	label,
	children,
}: {
	section: string
	intent: string
	id: number
	form: ConformForm<Schema>
	label: string
	children: ReactNode
}) {
	const { href } = useScreen()
	const pending = useIntentPending(intent, id)
	return (
		<li className="py-3">
			<Form
				method="post"
				preventScrollReset
				{...getFormProps(form)}
				className="grid gap-3 rounded-lg bg-gray-50 p-3 sm:grid-cols-2"
				aria-label={label}
			>
				<HiddenIds id={id} />
				{children}
				<ErrorList id={form.errorId} errors={form.errors} alert />
				<div className="flex gap-2 sm:col-span-2">
					<StatusButton intent={intent} pending={pending} pendingLabel="Saving..." className={small}>
						Save
					</StatusButton>
					<Link to={href({}, section)} preventScrollReset className={buttonClass('secondary', small)}>
						Cancel
					</Link>
				</div>
			</Form>
		</li>
	)
}

/** Edit (a link, so it works without JavaScript) and Delete for one row; each names the row for screen readers. */
export function RowActions({ editHref, deleteIntent, id, name }: { editHref?: string; deleteIntent: string; id: number; name: string }) {
	return (
		<div className="flex gap-2">
			{editHref ? (
				<Link to={editHref} preventScrollReset className={buttonClass('secondary', small)} aria-label={`Edit ${name}`}>
					Edit
				</Link>
			) : null}
			<ActionButton intent={deleteIntent} id={id} label="Delete" accessibleName={`Delete ${name}`} />
		</div>
	)
}
