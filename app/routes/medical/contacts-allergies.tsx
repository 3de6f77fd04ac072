import { AllergySchema, ContactSchema, SEVERITIES } from '#app/domain/profiles/schemas.ts'
import { options } from '#app/ui/forms.tsx'
import { INTENTS } from './intents.ts'
import { ActionButton } from './screen-context.tsx'
import { SectionDialog } from './section-forms.tsx'
import { DeleteLink, ListSection, SectionRow } from './section-card.tsx'
import { CheckField, ChoiceField, TextField } from '#app/ui/text-field.tsx'

export function ContactsSection() {
	return (
		<ListSection
			id="contacts"
			rows={(p) => p.emergencyContacts}
			name={(c) => `contact ${c.name}`}
			deleteIntent={INTENTS.deleteContact}
			addForm={<AddContactDialog />}
		>
			{(c) => (
				<SectionRow
					actions={
						<div className="flex flex-wrap gap-2">
							{c.email ? (
								<ActionButton
									intent={INTENTS.setContactAlert}
									id={c.id}
									label={c.alertOptIn ? 'Stop alerts' : 'Alert when helped'}
									accessibleName={c.alertOptIn ? `Stop alerting ${c.name}` : `Alert ${c.name} when a responder is helping`}
									extra={{ alertOptIn: c.alertOptIn ? 'false' : 'true' }}
								/>
							) : null}
							<DeleteLink />
						</div>
					}
				>
					<p className="font-semibold">
						{c.name} <span className="font-normal text-gray-700">({c.relationship})</span>
					</p>
					<p>
						<a href={`tel:${c.phoneNumber}`} className="text-blue-800 underline">
							{c.phoneNumber}
						</a>
						{c.email ? <span className="text-gray-700"> · {c.email}</span> : null}
					</p>
					{c.alertOptIn ? <p className="text-sm font-semibold text-green-800">Alerted when a responder is helping</p> : null}
				</SectionRow>
			)}
		</ListSection>
	)
}

function AddContactDialog() {
	return (
		<SectionDialog title="Add Emergency Contact" section="contacts" intent={INTENTS.addContact} schema={ContactSchema} label="Add Contact">
			{(fields) => (
				<>
					<TextField field={fields.name} label="Name" autoComplete="off" />
					<TextField field={fields.relationship} label="Relationship" />
					<TextField field={fields.phoneNumber} label="Phone number" type="tel" autoComplete="off" />
					<TextField field={fields.email} label="Email (optional)" type="email" autoComplete="off" />
					<CheckField field={fields.alertOptIn} label="E-mail this contact when a responder says they are helping (needs an email)" />
				</>
			)}
		</SectionDialog>
	)
}

export function AllergiesSection() {
	return (
		<ListSection
			id="allergies"
			rows={(p) => p.allergies}
			name={(a) => `allergy ${a.allergen}`}
			deleteIntent={INTENTS.deleteAllergy}
			addForm={<AddAllergyDialog />}
		>
			{(a) => (
				<SectionRow actions={<DeleteLink />}>
					<p className="font-semibold">
						{a.allergen}{' '}
						<span
							className={
								a.severity === 'Severe' ? 'rounded bg-red-100 px-2 text-sm text-red-900' : 'rounded bg-gray-100 px-2 text-sm text-gray-800'
							}
						>
							{a.severity}
						</span>
					</p>
					{a.reaction ? <p className="text-gray-700">Reaction: {a.reaction}</p> : null}
				</SectionRow>
			)}
		</ListSection>
	)
}

function AddAllergyDialog() {
	return (
		<SectionDialog title="Add Allergy" section="allergies" intent={INTENTS.addAllergy} schema={AllergySchema} label="Add Allergy">
			{(fields) => (
				<>
					<TextField field={fields.allergen} label="Allergen" />
					<ChoiceField field={fields.severity} label="Severity" placeholder="Choose severity" options={options(SEVERITIES)} />
					<TextField field={fields.reaction} label="Reaction (optional)" />
				</>
			)}
		</SectionDialog>
	)
}
