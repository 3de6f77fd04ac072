import { getInputProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { CONDITION_STATUSES, ConditionSchema, MedicationSchema, NEW_CONDITION_STATUSES } from '#app/domain/profiles/schemas.ts'
import { buttonClass, ErrorList, Field, options, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { DialogButtons } from './contacts-allergies.tsx'
import { INTENTS } from './intents.ts'
import type { ProfileView } from '#app/domain/profiles/views.ts'
import { ActionButton, getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { EmptyState, SectionCard } from './section-card.tsx'

type Medication = ProfileView['medications'][number]
type Condition = ProfileView['medicalConditions'][number]

/** Rows switch to inline editing through ?edit=section:id, a plain link with or without JavaScript. */
function useEditing(section: string, id: number) {
	const { edit } = useScreen()
	return edit === `${section}:${id}`
}

export function MedicationsSection() {
	const { profile, dialog } = useScreen()
	const list = profile?.medications ?? []
	return (
		<SectionCard id="medications" title="Current Medications" addLabel="Add Medication" addDialog="add-medication">
			{list.length ? (
				<ul className="divide-y divide-gray-200">
					{list.map((m) => (
						<MedicationRow key={m.id} medication={m} />
					))}
				</ul>
			) : (
				<EmptyState>No medications recorded yet.</EmptyState>
			)}
			{dialog === 'add-medication' ? <MedicationDialog /> : null}
		</SectionCard>
	)
}

function MedicationRow({ medication: m }: { medication: Medication }) {
	const { href } = useScreen()
	const editing = useEditing('medications', m.id)
	if (editing) return <MedicationForm medication={m} />
	return (
		<li className="flex flex-wrap items-center justify-between gap-3 py-3">
			<div>
				<p className="font-semibold">{m.name}</p>
				<p className="text-gray-700">{[m.dosage, m.frequency, m.prescribingDoctor ? `prescribed by ${m.prescribingDoctor}` : null].filter(Boolean).join(' · ') || 'No details'}</p>
			</div>
			<div className="flex gap-2">
				<Link to={href({ edit: `medications:${m.id}` }, 'medications')} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')} aria-label={`Edit medication ${m.name}`}>
					Edit
				</Link>
				<ActionButton intent={INTENTS.deleteMedication} id={m.id} label="Delete" accessibleName={`Delete medication ${m.name}`} />
			</div>
		</li>
	)
}

function MedicationFields({ fields }: { fields: ReturnType<typeof useSectionForm<typeof MedicationSchema>>[1] }) {
	return (
		<>
			<Field label="Medication name" errors={fields.name.errors} inputProps={getInputProps(fields.name, { type: 'text' })} />
			<Field label="Dosage" errors={fields.dosage.errors} inputProps={getInputProps(fields.dosage, { type: 'text' })} />
			<Field label="Frequency" errors={fields.frequency.errors} inputProps={getInputProps(fields.frequency, { type: 'text' })} />
			<Field label="Prescribing doctor" errors={fields.prescribingDoctor.errors} inputProps={getInputProps(fields.prescribingDoctor, { type: 'text' })} />
		</>
	)
}

function MedicationForm({ medication }: { medication: Medication }) {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.updateMedication, MedicationSchema, { id: medication.id, defaultValue: medication })
	const pending = useIntentPending(INTENTS.updateMedication, medication.id)
	return (
		<li className="py-3">
			<Form method="post" preventScrollReset {...getFormProps(form)} className="grid gap-3 rounded-lg bg-gray-50 p-3 sm:grid-cols-2" aria-label={`Edit medication ${medication.name}`}>
				<HiddenIds id={medication.id} />
				<MedicationFields fields={fields} />
				<ErrorList id={form.errorId} errors={form.errors} />
				<div className="flex gap-2 sm:col-span-2">
					<StatusButton type="submit" name="intent" value={INTENTS.updateMedication} pending={pending} pendingLabel="Saving..." className="min-h-9 px-3 py-1 text-sm">
						Save
					</StatusButton>
					<Link to={href({}, 'medications')} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}>
						Cancel
					</Link>
				</div>
			</Form>
		</li>
	)
}

function MedicationDialog() {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.addMedication, MedicationSchema)
	const pending = useIntentPending(INTENTS.addMedication)
	return (
		<Modal title="Add Medication" closeHref={href({}, 'medications')}>
			<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
				<HiddenIds />
				<MedicationFields fields={fields} />
				<ErrorList id={form.errorId} errors={form.errors} />
				<DialogButtons intent={INTENTS.addMedication} label="Add Medication" pending={pending} cancelHref={href({}, 'medications')} />
			</Form>
		</Modal>
	)
}

export function ConditionsSection() {
	const { profile, dialog } = useScreen()
	const list = profile?.medicalConditions ?? []
	return (
		<SectionCard id="conditions" title="Medical Conditions" addLabel="Add Condition" addDialog="add-condition">
			{list.length ? (
				<ul className="divide-y divide-gray-200">
					{list.map((c) => (
						<ConditionRow key={c.id} condition={c} />
					))}
				</ul>
			) : (
				<EmptyState>No medical conditions recorded yet.</EmptyState>
			)}
			{dialog === 'add-condition' ? <ConditionDialog /> : null}
		</SectionCard>
	)
}

function ConditionRow({ condition: c }: { condition: Condition }) {
	const { href } = useScreen()
	const editing = useEditing('conditions', c.id)
	if (editing) return <ConditionForm condition={c} />
	return (
		<li className="flex flex-wrap items-center justify-between gap-3 py-3">
			<div>
				<p className="font-semibold">
					{c.condition} <span className="rounded bg-gray-100 px-2 text-sm font-normal text-gray-800">{c.status}</span>
				</p>
				<p className="text-gray-700">{[c.diagnosedDate ? `Diagnosed ${c.diagnosedDate}` : null, c.notes].filter(Boolean).join(' · ')}</p>
			</div>
			<div className="flex gap-2">
				<Link to={href({ edit: `conditions:${c.id}` }, 'conditions')} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')} aria-label={`Edit condition ${c.condition}`}>
					Edit
				</Link>
				<ActionButton intent={INTENTS.deleteCondition} id={c.id} label="Delete" accessibleName={`Delete condition ${c.condition}`} />
			</div>
		</li>
	)
}

function ConditionFields({ fields, statuses }: { fields: ReturnType<typeof useSectionForm<typeof ConditionSchema>>[1]; statuses: readonly string[] }) {
	return (
		<>
			<Field label="Condition" errors={fields.condition.errors} inputProps={getInputProps(fields.condition, { type: 'text' })} />
			<SelectField label="Status" placeholder="Choose status" errors={fields.status.errors} selectProps={getInputProps(fields.status, { type: 'text' }) as never} options={options(statuses)} />
			<Field label="Diagnosed date" errors={fields.diagnosedDate.errors} inputProps={getInputProps(fields.diagnosedDate, { type: 'date' })} />
			<Field label="Notes" errors={fields.notes.errors} inputProps={getInputProps(fields.notes, { type: 'text' })} />
		</>
	)
}

function ConditionForm({ condition }: { condition: Condition }) {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.updateCondition, ConditionSchema, { id: condition.id, defaultValue: condition })
	const pending = useIntentPending(INTENTS.updateCondition, condition.id)
	return (
		<li className="py-3">
			<Form method="post" preventScrollReset {...getFormProps(form)} className="grid gap-3 rounded-lg bg-gray-50 p-3 sm:grid-cols-2" aria-label={`Edit condition ${condition.condition}`}>
				<HiddenIds id={condition.id} />
				<ConditionFields fields={fields} statuses={CONDITION_STATUSES} />
				<ErrorList id={form.errorId} errors={form.errors} />
				<div className="flex gap-2 sm:col-span-2">
					<StatusButton type="submit" name="intent" value={INTENTS.updateCondition} pending={pending} pendingLabel="Saving..." className="min-h-9 px-3 py-1 text-sm">
						Save
					</StatusButton>
					<Link to={href({}, 'conditions')} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}>
						Cancel
					</Link>
				</div>
			</Form>
		</li>
	)
}

function ConditionDialog() {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.addCondition, ConditionSchema)
	const pending = useIntentPending(INTENTS.addCondition)
	return (
		<Modal title="Add Medical Condition" closeHref={href({}, 'conditions')}>
			<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
				<HiddenIds />
				<ConditionFields fields={fields} statuses={NEW_CONDITION_STATUSES} />
				<ErrorList id={form.errorId} errors={form.errors} />
				<DialogButtons intent={INTENTS.addCondition} label="Add Condition" pending={pending} cancelHref={href({}, 'conditions')} />
			</Form>
		</Modal>
	)
}
