import { AllergySchema, ContactSchema, SEVERITIES } from '#app/domain/profiles/schemas.ts'
import { getInputProps } from '@conform-to/react'
import { CheckboxField, options } from '#app/ui/forms.tsx'
import { INTENTS } from './intents.ts'
import { ActionButton, useScreen, useSectionForm } from './screen-context.tsx'
import { SectionDialog } from './section-forms.tsx'
import { EmptyState, SectionCard } from './section-card.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'

export function ContactsSection() {
	const { profile, dialog } = useScreen()
	const contacts = profile?.emergencyContacts ?? []
	return (
		<SectionCard id="contacts" title="Emergency Contacts" addLabel="Add Contact" addDialog="add-contact">
			{contacts.length ? (
				<ul className="divide-y divide-gray-200">
					{contacts.map((c) => (
						<li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
							<div>
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
							</div>
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
								<ActionButton intent={INTENTS.deleteContact} id={c.id} label="Delete" accessibleName={`Delete contact ${c.name}`} />
							</div>
						</li>
					))}
				</ul>
			) : (
				<EmptyState>No emergency contacts added yet.</EmptyState>
			)}
			{dialog === 'add-contact' ? <AddContactDialog /> : null}
		</SectionCard>
	)
}

function AddContactDialog() {
	const [form, fields] = useSectionForm(INTENTS.addContact, ContactSchema)
	return (
		<SectionDialog title="Add Emergency Contact" section="contacts" intent={INTENTS.addContact} label="Add Contact" form={form}>
			<TextField field={fields.name} label="Name" autoComplete="off" />
			<TextField field={fields.relationship} label="Relationship" />
			<TextField field={fields.phoneNumber} label="Phone number" type="tel" autoComplete="off" />
			<TextField field={fields.email} label="Email (optional)" type="email" autoComplete="off" />
			<CheckboxField
				label="E-mail this contact when a responder says they are helping (needs an email)"
				inputProps={getInputProps(fields.alertOptIn, { type: 'checkbox' })}
				errors={fields.alertOptIn.errors}
			/>
		</SectionDialog>
	)
}

export function AllergiesSection() {
	const { profile, dialog } = useScreen()
	const list = profile?.allergies ?? []
	return (
		<SectionCard id="allergies" title="Allergies" addLabel="Add Allergy" addDialog="add-allergy">
			{list.length ? (
				<ul className="divide-y divide-gray-200">
					{list.map((a) => (
						<li key={a.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
							<div>
								<p className="font-semibold">
									{a.allergen}{' '}
									<span
										className={
											a.severity === 'Severe'
												? 'rounded bg-red-100 px-2 text-sm text-red-900'
												: 'rounded bg-gray-100 px-2 text-sm text-gray-800'
										}
									>
										{a.severity}
									</span>
								</p>
								{a.reaction ? <p className="text-gray-700">Reaction: {a.reaction}</p> : null}
							</div>
							<ActionButton intent={INTENTS.deleteAllergy} id={a.id} label="Delete" accessibleName={`Delete allergy ${a.allergen}`} />
						</li>
					))}
				</ul>
			) : (
				<EmptyState>No allergies recorded yet.</EmptyState>
			)}
			{dialog === 'add-allergy' ? <AddAllergyDialog /> : null}
		</SectionCard>
	)
}

function AddAllergyDialog() {
	const [form, fields] = useSectionForm(INTENTS.addAllergy, AllergySchema)
	return (
		<SectionDialog title="Add Allergy" section="allergies" intent={INTENTS.addAllergy} label="Add Allergy" form={form}>
			<TextField field={fields.allergen} label="Allergen" />
			<ChoiceField field={fields.severity} label="Severity" placeholder="Choose severity" options={options(SEVERITIES)} />
			<TextField field={fields.reaction} label="Reaction (optional)" />
		</SectionDialog>
	)
}
