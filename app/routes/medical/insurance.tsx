import { getInputProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { ACCEPT } from '#app/domain/uploads/file-type.ts'
import { InsurancePolicySchema, PLAN_TYPES, POLICY_RELATIONSHIPS } from '#app/domain/profiles/schemas.ts'
import { buttonClass, ErrorList, Field, options, SelectField } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { DialogButtons } from './contacts-allergies.tsx'
import { INTENTS } from './intents.ts'
import { ActionButton, getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { EmptyState, SectionCard } from './section-card.tsx'

const relationshipLabels = { self: 'Self', spouse: 'Spouse', child: 'Child', parent: 'Parent', other: 'Other' }
const planLabels = { HMO: 'HMO', PPO: 'PPO', EPO: 'EPO', POS: 'POS', other: 'Other' }

export function InsuranceSection() {
	const { profile, dialog, href } = useScreen()
	const list = profile?.insurancePolicies ?? []
	const editing = dialog?.startsWith('edit-policy:') ? list.find((p) => `edit-policy:${p.id}` === dialog) : undefined
	return (
		<SectionCard id="insurance" title="Insurance Policies" addLabel="Add Policy" addDialog="add-policy">
			{list.length ? (
				<ul className="divide-y divide-gray-200">
					{list.map((p) => (
						<li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
							<div className="flex items-center gap-3">
								{p.cardFrontPhotoUrl ? <img src={p.cardFrontPhotoUrl} alt={`Front of the ${p.provider} insurance card`} className="h-14 w-22 rounded border border-gray-300 object-cover" /> : null}
								<div>
									<p className="font-semibold">
										{p.provider} {p.planType ? <span className="font-normal text-gray-700">({planLabels[p.planType as keyof typeof planLabels] ?? p.planType})</span> : null}
									</p>
									<p className="text-gray-700">{[p.policyNumber ? `Policy ${p.policyNumber}` : null, p.groupNumber ? `Group ${p.groupNumber}` : null, p.subscriberName].filter(Boolean).join(' · ')}</p>
								</div>
							</div>
							<div className="flex gap-2">
								<Link to={href({ dialog: `edit-policy:${p.id}` })} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')} aria-label={`Edit policy ${p.provider}`}>
									Edit
								</Link>
								<ActionButton intent={INTENTS.deletePolicy} id={p.id} label="Delete" accessibleName={`Delete policy ${p.provider}`} />
							</div>
						</li>
					))}
				</ul>
			) : (
				<EmptyState>No insurance policies recorded yet.</EmptyState>
			)}
			{dialog === 'add-policy' ? <PolicyDialog /> : null}
			{editing ? <PolicyDialog policy={editing} /> : null}
		</SectionCard>
	)
}

type Policy = NonNullable<ReturnType<typeof useScreen>['profile']>['insurancePolicies'][number]

function PolicyDialog({ policy }: { policy?: Policy }) {
	const { href } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.savePolicy, InsurancePolicySchema, { id: policy?.id ?? null, defaultValue: policy ?? { relationship: 'self' } })
	const pending = useIntentPending(INTENTS.savePolicy)
	const cardErrors = (form.allErrors as Record<string, string[] | undefined>).cardFrontPhoto
	return (
		<Modal title={policy ? 'Edit Insurance Policy' : 'Add Insurance Policy'} closeHref={href({}, 'insurance')}>
			<Form method="post" encType="multipart/form-data" preventScrollReset {...getFormProps(form)} className="grid gap-3 sm:grid-cols-2">
				<HiddenIds id={policy?.id} />
				<Field className="sm:col-span-2" label="Insurance company" errors={fields.provider.errors} inputProps={getInputProps(fields.provider, { type: 'text' })} />
				<Field label="Policy number" errors={fields.policyNumber.errors} inputProps={getInputProps(fields.policyNumber, { type: 'text' })} />
				<Field label="Group number" errors={fields.groupNumber.errors} inputProps={getInputProps(fields.groupNumber, { type: 'text' })} />
				<Field label="Subscriber ID" errors={fields.subscriberId.errors} inputProps={getInputProps(fields.subscriberId, { type: 'text' })} />
				<Field label="Subscriber name" errors={fields.subscriberName.errors} inputProps={getInputProps(fields.subscriberName, { type: 'text' })} />
				<SelectField label="Relationship to subscriber" errors={fields.relationship.errors} selectProps={getInputProps(fields.relationship, { type: 'text' }) as never} options={options(POLICY_RELATIONSHIPS, relationshipLabels)} />
				<SelectField label="Plan type" placeholder="Not specified" errors={fields.planType.errors} selectProps={getInputProps(fields.planType, { type: 'text' }) as never} options={options(PLAN_TYPES, planLabels)} />
				<Field label="Effective date" errors={fields.effectiveDate.errors} inputProps={getInputProps(fields.effectiveDate, { type: 'date' })} />
				<Field label="Expiration date" errors={fields.expirationDate.errors} inputProps={getInputProps(fields.expirationDate, { type: 'date' })} />
				<Field label="Copay" errors={fields.copay.errors} inputProps={getInputProps(fields.copay, { type: 'text' })} />
				<Field label="Deductible" errors={fields.deductible.errors} inputProps={getInputProps(fields.deductible, { type: 'text' })} />
				<Field label="Provider phone" errors={fields.providerPhone.errors} inputProps={getInputProps(fields.providerPhone, { type: 'tel' })} />
				<Field label="Notes" errors={fields.notes.errors} inputProps={getInputProps(fields.notes, { type: 'text' })} />
				<Field
					className="sm:col-span-2"
					label={policy?.cardFrontPhotoUrl ? 'Replace card photo (front)' : 'Card photo (front, optional)'}
					errors={cardErrors}
					inputProps={{ type: 'file', name: 'cardFrontPhoto', accept: ACCEPT.images, className: 'py-1.5' }}
				/>
				<div className="sm:col-span-2">
					<ErrorList id={form.errorId} errors={form.errors} />
					<DialogButtons intent={INTENTS.savePolicy} label={policy ? 'Save Policy' : 'Add Policy'} pending={pending} cancelHref={href({}, 'insurance')} />
				</div>
			</Form>
		</Modal>
	)
}
