import { CONDITION_STATUSES, ConditionSchema, MedicationSchema, NEW_CONDITION_STATUSES } from '#app/domain/profiles/schemas.ts'
import { options } from '#app/ui/forms.tsx'
import { EditableRow, SectionDialog, type SectionFields } from './section-forms.tsx'
import { INTENTS } from './intents.ts'
import { ListSection } from './section-card.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'
import { formatDate } from '#app/utils/dates.ts'

export function MedicationsSection() {
	return (
		<ListSection
			id="medications"
			rows={(p) => p.medications}
			name={(m) => `medication ${m.name}`}
			deleteIntent={INTENTS.deleteMedication}
			addForm={<MedicationDialog />}
		>
			{(m) => (
				<EditableRow
					row={m}
					updateIntent={INTENTS.updateMedication}
					schema={MedicationSchema}
					fields={(fields) => <MedicationFields fields={fields} />}
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
		<ListSection
			id="conditions"
			rows={(p) => p.medicalConditions}
			name={(c) => `condition ${c.condition}`}
			deleteIntent={INTENTS.deleteCondition}
			addForm={<ConditionDialog />}
		>
			{(c) => (
				<EditableRow
					row={c}
					updateIntent={INTENTS.updateCondition}
					schema={ConditionSchema}
					fields={(fields) => <ConditionFields fields={fields} statuses={CONDITION_STATUSES} />}
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
