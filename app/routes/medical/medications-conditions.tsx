import { CONDITION_STATUSES, ConditionSchema, MedicationSchema, NEW_CONDITION_STATUSES } from '#app/domain/profiles/schemas.ts'
import { options } from '#app/ui/forms.tsx'
import { EditRowForm, RowActions, SectionDialog } from './section-forms.tsx'
import { INTENTS } from './intents.ts'
import type { ProfileView } from '#app/domain/profiles/views.ts'
import { useScreen, useSectionForm } from './screen-context.tsx'
import { EmptyState, SectionCard } from './section-card.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'
import { formatDate } from '#app/utils/dates.ts'

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
				<p className="text-gray-700">
					{[m.dosage, m.frequency, m.prescribingDoctor ? `prescribed by ${m.prescribingDoctor}` : null].filter(Boolean).join(' · ') ||
						'No details'}
				</p>
			</div>
			<RowActions
				editHref={href({ edit: `medications:${m.id}` }, 'medications')}
				deleteIntent={INTENTS.deleteMedication}
				id={m.id}
				name={`medication ${m.name}`}
			/>
		</li>
	)
}

function MedicationFields({ fields }: { fields: ReturnType<typeof useSectionForm<typeof MedicationSchema>>[1] }) {
	return (
		<>
			<TextField field={fields.name} label="Medication name" />
			<TextField field={fields.dosage} label="Dosage" />
			<TextField field={fields.frequency} label="Frequency" />
			<TextField field={fields.prescribingDoctor} label="Prescribing doctor" />
		</>
	)
}

function MedicationForm({ medication }: { medication: Medication }) {
	const [form, fields] = useSectionForm(INTENTS.updateMedication, MedicationSchema, { id: medication.id, defaultValue: medication })
	return (
		<EditRowForm
			section="medications"
			intent={INTENTS.updateMedication}
			id={medication.id}
			form={form}
			label={`Edit medication ${medication.name}`}
		>
			<MedicationFields fields={fields} />
		</EditRowForm>
	)
}

function MedicationDialog() {
	const [form, fields] = useSectionForm(INTENTS.addMedication, MedicationSchema)
	return (
		<SectionDialog title="Add Medication" section="medications" intent={INTENTS.addMedication} label="Add Medication" form={form}>
			<MedicationFields fields={fields} />
		</SectionDialog>
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
				<p className="text-gray-700">
					{[c.diagnosedDate ? `Diagnosed ${formatDate(c.diagnosedDate)}` : null, c.notes].filter(Boolean).join(' · ')}
				</p>
			</div>
			<RowActions
				editHref={href({ edit: `conditions:${c.id}` }, 'conditions')}
				deleteIntent={INTENTS.deleteCondition}
				id={c.id}
				name={`condition ${c.condition}`}
			/>
		</li>
	)
}

function ConditionFields({
	fields,
	statuses,
}: {
	fields: ReturnType<typeof useSectionForm<typeof ConditionSchema>>[1]
	statuses: readonly string[]
}) {
	return (
		<>
			<TextField field={fields.condition} label="Condition" />
			<ChoiceField field={fields.status} label="Status" placeholder="Choose status" options={options(statuses)} />
			<TextField field={fields.diagnosedDate} label="Diagnosed date" type="date" />
			<TextField field={fields.notes} label="Notes" />
		</>
	)
}

function ConditionForm({ condition }: { condition: Condition }) {
	const [form, fields] = useSectionForm(INTENTS.updateCondition, ConditionSchema, { id: condition.id, defaultValue: condition })
	return (
		<EditRowForm
			section="conditions"
			intent={INTENTS.updateCondition}
			id={condition.id}
			form={form}
			label={`Edit condition ${condition.condition}`}
		>
			<ConditionFields fields={fields} statuses={CONDITION_STATUSES} />
		</EditRowForm>
	)
}

function ConditionDialog() {
	const [form, fields] = useSectionForm(INTENTS.addCondition, ConditionSchema)
	return (
		<SectionDialog title="Add Medical Condition" section="conditions" intent={INTENTS.addCondition} label="Add Condition" form={form}>
			<ConditionFields fields={fields} statuses={NEW_CONDITION_STATUSES} />
		</SectionDialog>
	)
}
