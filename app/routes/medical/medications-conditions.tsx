import { CONDITION_STATUSES, ConditionSchema, MedicationSchema, NEW_CONDITION_STATUSES } from '#app/domain/profiles/schemas.ts'
import { options } from '#app/ui/forms.tsx'
import { EditableRow, EditRowForm, SectionDialog, type SectionFields } from './section-forms.tsx'
import { INTENTS } from './intents.ts'
import type { ProfileView } from '#app/domain/profiles/views.ts'
import { ListSection } from './section-card.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'
import { formatDate } from '#app/utils/dates.ts'

type Medication = ProfileView['medications'][number]
type Condition = ProfileView['medicalConditions'][number]

export function MedicationsSection() {
	return (
		<ListSection id="medications" rows={(p) => p.medications} addForm={<MedicationDialog />}>
			{(m) => (
				<EditableRow
					section="medications"
					id={m.id}
					name={`medication ${m.name}`}
					deleteIntent={INTENTS.deleteMedication}
					editForm={<MedicationForm medication={m} />}
				>
					<p className="font-semibold">{m.name}</p>
					<p className="text-gray-700">
						{[m.dosage, m.frequency, m.prescribingDoctor ? `prescribed by ${m.prescribingDoctor}` : null].filter(Boolean).join(' · ') ||
							'No details'}
					</p>
				</EditableRow>
			)}
		</ListSection>
	)
}

function MedicationFields({ fields }: { fields: SectionFields<typeof MedicationSchema> }) {
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
	return (
		<EditRowForm
			section="medications"
			intent={INTENTS.updateMedication}
			schema={MedicationSchema}
			row={medication}
			label={`Edit medication ${medication.name}`}
		>
			{(fields) => <MedicationFields fields={fields} />}
		</EditRowForm>
	)
}

function MedicationDialog() {
	return (
		<SectionDialog
			title="Add Medication"
			section="medications"
			intent={INTENTS.addMedication}
			schema={MedicationSchema}
			label="Add Medication"
		>
			{(fields) => <MedicationFields fields={fields} />}
		</SectionDialog>
	)
}

export function ConditionsSection() {
	return (
		<ListSection id="conditions" rows={(p) => p.medicalConditions} addForm={<ConditionDialog />}>
			{(c) => (
				<EditableRow
					section="conditions"
					id={c.id}
					name={`condition ${c.condition}`}
					deleteIntent={INTENTS.deleteCondition}
					editForm={<ConditionForm condition={c} />}
				>
					<p className="font-semibold">
						{c.condition} <span className="rounded bg-gray-100 px-2 text-sm font-normal text-gray-800">{c.status}</span>
					</p>
					<p className="text-gray-700">
						{[c.diagnosedDate ? `Diagnosed ${formatDate(c.diagnosedDate)}` : null, c.notes].filter(Boolean).join(' · ')}
					</p>
				</EditableRow>
			)}
		</ListSection>
	)
}

function ConditionFields({ fields, statuses }: { fields: SectionFields<typeof ConditionSchema>; statuses: readonly string[] }) {
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
	return (
		<EditRowForm
			section="conditions"
			intent={INTENTS.updateCondition}
			schema={ConditionSchema}
			row={condition}
			label={`Edit condition ${condition.condition}`}
		>
			{(fields) => <ConditionFields fields={fields} statuses={CONDITION_STATUSES} />}
		</EditRowForm>
	)
}

function ConditionDialog() {
	return (
		<SectionDialog
			title="Add Medical Condition"
			section="conditions"
			intent={INTENTS.addCondition}
			schema={ConditionSchema}
			label="Add Condition"
		>
			{(fields) => <ConditionFields fields={fields} statuses={NEW_CONDITION_STATUSES} />}
		</SectionDialog>
	)
}
