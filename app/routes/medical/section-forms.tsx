import type { ReactNode } from 'react'
import type { z } from 'zod'
import { Form, Link } from 'react-router'
import { buttonClass, ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { DeleteLink, SectionRow, useRow } from './section-card.tsx'

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

type SectionForm<S extends z.ZodObject> = ReturnType<typeof useSectionForm<S>>
/** The fields of a section form, for the components that lay them out. */
export type SectionFields<S extends z.ZodObject> = SectionForm<S>[1]
type FormValues<S extends z.ZodObject> = Partial<Record<keyof z.input<S>, unknown>>

/**
 * The add (or edit) dialog of a medical section: the form of `schema` posts its intent for the selected profile (and
 * row `id`), shows the form's own errors, and Cancel returns to the section. `grid` lays the fields out in two columns.
 */
export function SectionDialog<S extends z.ZodObject>({
	title,
	section,
	intent,
	schema,
	defaultValue,
	label,
	id,
	multipart = false,
	grid = false,
	children,
}: {
	title: string
	section: string
	intent: string
	schema: S
	defaultValue?: FormValues<S>
	label: string
	id?: number
	multipart?: boolean
	grid?: boolean
	children: (fields: SectionFields<S>, form: SectionForm<S>[0]) => ReactNode
}) {
	const [form, fields] = useSectionForm(intent, schema, { id: id ?? null, defaultValue })
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
		<Modal title={title} closeHref={cancelHref} start="field" showsErrors={form.status === 'error'}>
			<Form
				method="post"
				encType={multipart ? 'multipart/form-data' : undefined}
				preventScrollReset
				{...getFormProps(form)}
				className={grid ? 'grid gap-3 sm:grid-cols-2' : 'space-y-4'}
			>
				<HiddenIds id={id} />
				{children(fields, form)}
				{grid ? <div className="sm:col-span-2">{footer}</div> : footer}
			</Form>
		</Modal>
	)
}

/** A row of a medical section edited in place: the form of `schema` with the row's values, Save, and Cancel back to the list. */
function EditRowForm<S extends z.ZodObject>({
	section,
	intent,
	schema,
	row,
	label,
	children,
}: {
	section: string
	intent: string
	schema: S
	row: FormValues<S> & { id: number }
	label: string
	children: (fields: SectionFields<S>) => ReactNode
}) {
	const { id } = row
	const [form, fields] = useSectionForm(intent, schema, { id, defaultValue: row })
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
				{children(fields)}
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

/**
 * A row edited in place through ?edit=section:id, a plain link with or without JavaScript: while it is edited, the
 * form of `schema` with the row's values (`fields` lays them out); otherwise what it records, with Edit and Delete.
 */
export function EditableRow<S extends z.ZodObject>({
	row,
	updateIntent,
	schema,
	fields,
	children,
}: {
	row: FormValues<S> & { id: number }
	updateIntent: string
	schema: S
	fields: (fields: SectionFields<S>) => ReactNode
	children: ReactNode
}) {
	const { edit, href, canEdit } = useScreen()
	const { section, key, name } = useRow()
	if (edit === key && canEdit) {
		return (
			<EditRowForm section={section} intent={updateIntent} schema={schema} row={row} label={`Edit ${name}`}>
				{fields}
			</EditRowForm>
		)
	}
	return <SectionRow actions={<RowActions editHref={href({ edit: key }, section)} />}>{children}</SectionRow>
}

/** Edit (a link, so it works without JavaScript) and Delete for one row; each names the row for screen readers. */
export function RowActions({ editHref }: { editHref?: string }) {
	const { name } = useRow()
	return (
		<div className="flex gap-2">
			{editHref ? (
				<Link to={editHref} preventScrollReset className={buttonClass('secondary', small)} aria-label={`Edit ${name}`}>
					Edit
				</Link>
			) : null}
			<DeleteLink />
		</div>
	)
}
