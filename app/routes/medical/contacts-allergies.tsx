import { getInputProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { AllergySchema, ContactSchema, SEVERITIES } from '#app/domain/profiles/schemas.ts'
import { buttonClass, ErrorList, Field, options, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { INTENTS } from './intents.ts'
import { ActionButton, getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { EmptyState, SectionCard } from './section-card.tsx'
import { TextField } from '#app/ui/text-field.tsx'

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
							</div>
							<ActionButton intent={INTENTS.deleteContact} id={c.id} label="Delete" accessibleName={`Delete contact ${c.name}`} />
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
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.addContact, ContactSchema)
	const pending = useIntentPending(INTENTS.addContact)
	return (
		<Modal title="Add Emergency Contact" closeHref={href({}, 'contacts')}>
			<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
				<HiddenIds />
				<TextField field={fields.name} label="Name" autoComplete="off" />
				<Field label="Relationship" errors={fields.relationship.errors} inputProps={getInputProps(fields.relationship, { type: 'text' })} />
				<TextField field={fields.phoneNumber} label="Phone number" type="tel" autoComplete="off" />
				<TextField field={fields.email} label="Email (optional)" type="email" autoComplete="off" />
				<ErrorList id={form.errorId} errors={form.errors} />
				<DialogButtons intent={INTENTS.addContact} label="Add Contact" pending={pending} cancelHref={href({}, 'contacts')} />
			</Form>
		</Modal>
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
									<span className={a.severity === 'Severe' ? 'rounded bg-red-100 px-2 text-sm text-red-900' : 'rounded bg-gray-100 px-2 text-sm text-gray-800'}>
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
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.addAllergy, AllergySchema)
	const pending = useIntentPending(INTENTS.addAllergy)
	return (
		<Modal title="Add Allergy" closeHref={href({}, 'allergies')}>
			<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-4">
				<HiddenIds />
				<Field label="Allergen" errors={fields.allergen.errors} inputProps={getInputProps(fields.allergen, { type: 'text' })} />
				<SelectField
					label="Severity"
					placeholder="Choose severity"
					errors={fields.severity.errors}
					selectProps={getInputProps(fields.severity, { type: 'text' }) as never}
					options={options(SEVERITIES)}
				/>
				<Field label="Reaction (optional)" errors={fields.reaction.errors} inputProps={getInputProps(fields.reaction, { type: 'text' })} />
				<ErrorList id={form.errorId} errors={form.errors} />
				<DialogButtons intent={INTENTS.addAllergy} label="Add Allergy" pending={pending} cancelHref={href({}, 'allergies')} />
			</Form>
		</Modal>
	)
}

export function DialogButtons({ intent, label, pending, cancelHref }: { intent: string; label: string; pending: boolean; cancelHref: string }) {
	return (
		<div className="flex justify-end gap-2 pt-2">
			<Link to={cancelHref} preventScrollReset className={buttonClass('secondary')}>
				Cancel
			</Link>
			<StatusButton type="submit" name="intent" value={intent} pending={pending} pendingLabel="Saving...">
				{label}
			</StatusButton>
		</div>
	)
}
