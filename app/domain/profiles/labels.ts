import { BLOOD_TYPE, CONDITION_STATUS, DNR_STATUS, GENDER, PLAN_TYPE, POLICY_RELATIONSHIP, RELATIONSHIP, SEVERITY } from './vocabularies.ts'

// The option lists and labels of spec 001 §3, §5 that pages show and schemas check (vocabularies.ts holds them).

export { FAMILY_GENDERS, NEW_CONDITION_STATUSES } from './vocabularies.ts'
export { profileLabel } from './profile-label.ts'
export const RELATIONSHIPS = RELATIONSHIP.values
export const RELATIONSHIP_LABELS = RELATIONSHIP.labels
export const GENDERS = GENDER.values
export const BLOOD_TYPES = BLOOD_TYPE.values
export const SEVERITIES = SEVERITY.values
export const CONDITION_STATUSES = CONDITION_STATUS.values
export const PLAN_TYPES = PLAN_TYPE.values
export const PLAN_TYPE_LABELS = PLAN_TYPE.labels
export const POLICY_RELATIONSHIPS = POLICY_RELATIONSHIP.values
export const POLICY_RELATIONSHIP_LABELS = POLICY_RELATIONSHIP.labels
export const DNR_STATUSES = DNR_STATUS.values
export const DNR_LABELS = DNR_STATUS.labels
