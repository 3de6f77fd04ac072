import { useLocation } from 'react-router'
import { fieldLabel, type DatabaseOutage, type KeptField } from '#app/utils/database-outage.ts'
import { buttonClass, CheckboxField, Field, TextareaField } from './forms.tsx'

/**
 * The database did not answer (503). A page asks to be loaded again; a form sent without JavaScript comes back with
 * what was typed (passwords excepted, and files, which must be chosen again), ready to be sent again as it was.
 */
export function OutageScreen({ outage }: { outage: DatabaseOutage }) {
	const location = useLocation()
	const form = outage.form
	const needsRetyping = form?.fields.filter((f) => f.kind === 'secret') ?? []
	return (
		<main id="main" role="alert" className="mx-auto flex min-h-[60vh] max-w-xl flex-col justify-center gap-4 p-6">
			<h1 className="text-center text-3xl font-bold text-gray-900">Temporarily unavailable</h1>
			<p className="text-center text-lg text-gray-700">{outage.message}</p>
			{form ? (
				<form method="post" action={form.action} encType={form.enctype} className="flex flex-col gap-4">
					<p className="text-gray-800">
						What you sent may not have been saved. It is below: check it, then send it again.
						{needsRetyping.length ? ' Passwords and codes are not kept, so type them again.' : ''}
						{form.files.length ? ' Attached files are not kept: go back to the form to choose them again.' : ''}
					</p>
					{form.fields.map((field, index) => (
						<KeptInput key={`${field.name}-${index}`} field={field} index={index} />
					))}
					<button type="submit" className={buttonClass('primary')}>
						Send again
					</button>
				</form>
			) : (
				<a href={location.pathname + location.search} className={buttonClass('primary', 'self-center')}>
					Try Again
				</a>
			)}
		</main>
	)
}

function KeptInput({ field, index }: { field: KeptField; index: number }) {
	const id = `kept-${index}`
	const label = fieldLabel(field.name)
	if (field.kind === 'hidden') return <input type="hidden" name={field.name} value={field.value} />
	if (field.kind === 'secret')
		return <Field label={label} inputProps={{ id, name: field.name, type: 'password', autoComplete: 'off', required: true }} />
	if (field.value === 'on') return <CheckboxField label={label} inputProps={{ id, name: field.name, defaultChecked: true }} />
	if (field.value.length > 80 || field.value.includes('\n'))
		return <TextareaField label={label} textareaProps={{ id, name: field.name, defaultValue: field.value }} />
	return <Field label={label} inputProps={{ id, name: field.name, type: 'text', defaultValue: field.value }} />
}
