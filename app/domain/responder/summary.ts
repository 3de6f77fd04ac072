import { profileFlags } from './critical-flags.ts'
import { LABELS } from './labels.ts'

/** What the summary reads of a profile: the responder page's facts. */
export type SummaryProfile = {
	fullName: string | null
	dnrStatus: string | null
	dnrDocumentDate: string | null
	dnrOriginalLocation: string | null
	bloodType: string | null
	distinguishingMarks: string | null
	additionalNotes: string | null
	allergies: Array<{ allergen: string; severity: string; reaction: string | null }>
	medications: Array<{ name: string; dosage: string | null; frequency: string | null }>
	medicalConditions: Array<{ condition: string; status: string; notes: string | null }>
	emergencyContacts: Array<{ name: string; relationship: string; phoneNumber: string }>
}

const t = LABELS.en
const none = t.none

/** Whether anything is recorded that changes what a responder does: the sections a reminder nudges about when empty. */
export function hasRecordedCare(profile: Pick<SummaryProfile, 'allergies' | 'medications' | 'medicalConditions' | 'emergencyContacts'>) {
	return [profile.allergies, profile.medications, profile.medicalConditions, profile.emergencyContacts].some((list) => list.length > 0)
}

/** The responder page's facts as plain-text lines, in its order (for e-mail). */
export function responderSummaryLines(profile: SummaryProfile) {
	const status =
		profile.dnrStatus === 'DNR' ? t.dnr : profile.dnrStatus === 'POLST' ? t.polst : profile.dnrStatus === 'Unknown' ? t.unknownDnr : t.noDnr
	const statusDetails = [
		profile.dnrDocumentDate ? `${t.signed} ${profile.dnrDocumentDate}` : null,
		profile.dnrOriginalLocation ? `${t.originalKept}: ${profile.dnrOriginalLocation}` : null,
	].filter(Boolean)
	const flags = profileFlags(profile)
	const label = (key: string) => (t as Record<string, string>)[key] ?? key
	const joined = (items: string[]) => (items.length ? items.join('; ') : none)
	return [
		`${t.codeStatus}: ${status}${statusDetails.length ? ` (${statusDetails.join(', ')})` : ''}`,
		...(flags.length ? [`${t.critical}: ${flags.map((f) => `${label(`flag_${f.kind}`)}: ${f.detail}`).join('; ')}`] : []),
		`${t.conditions}: ${joined(profile.medicalConditions.map((c) => `${c.condition} (${label(c.status)})`))}`,
		`${t.allergies}: ${joined(profile.allergies.map((a) => `${a.allergen} (${label(a.severity)})${a.reaction ? `: ${a.reaction}` : ''}`))}`,
		`${t.medications}: ${joined(profile.medications.map((m) => [m.name, m.dosage, m.frequency].filter(Boolean).join(', ')))}`,
		`${t.contacts}: ${joined(profile.emergencyContacts.map((c) => `${c.name} (${c.relationship}): ${c.phoneNumber}`))}`,
		`${t.bloodType}: ${profile.bloodType ?? none}`,
	]
}
