// The option lists and labels of spec 001 §3, §5 that pages show and schemas check.

export const RELATIONSHIPS = ['self', 'child', 'spouse', 'partner', 'parent'] as const
export const RELATIONSHIP_LABELS: Record<(typeof RELATIONSHIPS)[number], string> = {
	self: 'Yourself',
	child: 'Child',
	spouse: 'Spouse',
	partner: 'Partner',
	parent: 'Parent',
}
export const FAMILY_GENDERS = ['male', 'female', 'non-binary', 'other'] as const
export const FAMILY_GENDER_LABELS = { male: 'Male', female: 'Female', 'non-binary': 'Non-binary', other: 'Other' } as const
export const GENDERS = ['Male', 'Female', 'Other', 'Prefer not to say'] as const
export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const
export const SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const
export const CONDITION_STATUSES = ['Active', 'Chronic', 'Managed', 'Resolved', 'Under Treatment'] as const
export const NEW_CONDITION_STATUSES = ['Active', 'Resolved', 'Chronic'] as const
export const PLAN_TYPES = ['HMO', 'PPO', 'EPO', 'POS', 'other'] as const
export const POLICY_RELATIONSHIPS = ['self', 'spouse', 'child', 'parent', 'other'] as const
export const DNR_STATUSES = ['None', 'DNR', 'POLST', 'Unknown'] as const
export const DNR_LABELS: Record<(typeof DNR_STATUSES)[number], string> = {
	None: 'No DNR',
	DNR: 'Do Not Resuscitate',
	POLST: 'POLST on File',
	Unknown: 'Unknown',
}

export function profileLabel(profile: { id: number; fullName: string | null; relationshipToUser: string | null }) {
	const relationship = RELATIONSHIP_LABELS[(profile.relationshipToUser ?? 'self') as keyof typeof RELATIONSHIP_LABELS] ?? 'Family'
	return profile.fullName ? `${profile.fullName} (${relationship})` : `Profile ${profile.id}`
}
