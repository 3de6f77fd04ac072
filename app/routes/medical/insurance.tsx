import { ACCEPT } from '#app/domain/uploads/file-type.ts'
import {
	InsurancePolicySchema,
	PLAN_TYPE_LABELS,
	PLAN_TYPES,
	POLICY_RELATIONSHIP_LABELS,
	POLICY_RELATIONSHIPS,
} from '#app/domain/profiles/schemas.ts'
import { Field, options } from '#app/ui/forms.tsx'
import { RowActions, SectionDialog } from './section-forms.tsx'
import { INTENTS } from './intents.ts'
import { useScreen } from './screen-context.tsx'
import { ListSection, SectionRow } from './section-card.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'

export function InsuranceSection() {
	const { profile, dialog, href } = useScreen()
	const editing = dialog?.startsWith('edit-policy:') ? profile?.insurancePolicies.find((p) => `edit-policy:${p.id}` === dialog) : undefined
	return (
		<ListSection
			id="insurance"
			rows={(p) => p.insurancePolicies}
			name={(p) => `policy ${p.provider}`}
			deleteIntent={INTENTS.deletePolicy}
			addForm={<PolicyDialog />}
			editForm={editing ? <PolicyDialog policy={editing} /> : null}
		>
			{(p) => (
				<SectionRow actions={<RowActions editHref={href({ dialog: `edit-policy:${p.id}` })} />} className="flex items-center gap-3">
					{p.cardFrontPhotoUrl ? (
						<img
							src={p.cardFrontPhotoUrl}
							alt={`Front of the ${p.provider} insurance card`}
							className="h-14 w-22 rounded border border-gray-300 object-cover"
						/>
					) : null}
					<div>
						<p className="font-semibold">
							{p.provider}{' '}
							{p.planType ? (
								<span className="font-normal text-gray-700">
									({PLAN_TYPE_LABELS[p.planType as keyof typeof PLAN_TYPE_LABELS] ?? p.planType})
								</span>
							) : null}
						</p>
						<p className="text-gray-700">
							{[p.policyNumber ? `Policy ${p.policyNumber}` : null, p.groupNumber ? `Group ${p.groupNumber}` : null, p.subscriberName]
								.filter(Boolean)
								.join(' · ')}
						</p>
					</div>
				</SectionRow>
			)}
		</ListSection>
	)
}

type Policy = NonNullable<ReturnType<typeof useScreen>['profile']>['insurancePolicies'][number]

function PolicyDialog({ policy }: { policy?: Policy }) {
	return (
		<SectionDialog
			title={policy ? 'Edit Insurance Policy' : 'Add Insurance Policy'}
			section="insurance"
			intent={INTENTS.savePolicy}
			schema={InsurancePolicySchema}
			defaultValue={policy ?? { relationship: 'self' }}
			label={policy ? 'Save Policy' : 'Add Policy'}
			id={policy?.id}
			multipart
			grid
		>
			{(fields, form) => (
				<>
					<TextField field={fields.provider} label="Insurance company" className="sm:col-span-2" />
					<TextField field={fields.policyNumber} label="Policy number" />
					<TextField field={fields.groupNumber} label="Group number" />
					<TextField field={fields.subscriberId} label="Subscriber ID" />
					<TextField field={fields.subscriberName} label="Subscriber name" />
					<ChoiceField
						field={fields.relationship}
						label="Relationship to subscriber"
						options={options(POLICY_RELATIONSHIPS, POLICY_RELATIONSHIP_LABELS)}
					/>
					<ChoiceField
						field={fields.planType}
						label="Plan type"
						placeholder="Not specified"
						options={options(PLAN_TYPES, PLAN_TYPE_LABELS)}
					/>
					<TextField field={fields.effectiveDate} label="Effective date" type="date" />
					<TextField field={fields.expirationDate} label="Expiration date" type="date" />
					<TextField field={fields.copay} label="Copay" />
					<TextField field={fields.deductible} label="Deductible" />
					<TextField field={fields.providerPhone} label="Provider phone" type="tel" />
					<TextField field={fields.notes} label="Notes" />
					<Field
						className="sm:col-span-2"
						label={policy?.cardFrontPhotoUrl ? 'Replace card photo (front)' : 'Card photo (front, optional)'}
						errors={(form.allErrors as Record<string, string[] | undefined>).cardFrontPhoto}
						inputProps={{ type: 'file', name: 'cardFrontPhoto', accept: ACCEPT.images, className: 'py-1.5' }}
					/>
				</>
			)}
		</SectionDialog>
	)
}
