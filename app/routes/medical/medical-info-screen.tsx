import { ContactsSection, AllergiesSection } from './contacts-allergies.tsx'
import { DnrSection, DocumentsSection, NotesSection } from './dnr-documents-notes.tsx'
import { InsuranceSection } from './insurance.tsx'
import type { MedicalInfoData } from './medical-info.server.ts'
import { ConditionsSection, MedicationsSection } from './medications-conditions.tsx'
import { PersonalInfoSection } from './personal-info.tsx'
import { ProfileSelector } from './profile-selector.tsx'
import { ScreenProvider, type Failure } from './screen-context.tsx'

/** The ten sections of spec 001 §2, top to bottom; every form posts back to the page that shows them. */
export function MedicalInfoScreen({ data, failure, base }: { data: MedicalInfoData; failure: Failure | null; base: string }) {
	return (
		<ScreenProvider value={{ ...data, failure, base }}>
			<div className="space-y-5">
				<ProfileSelector />
				<PersonalInfoSection />
				<ContactsSection />
				<AllergiesSection />
				<MedicationsSection />
				<ConditionsSection />
				<InsuranceSection />
				<DnrSection />
				<DocumentsSection />
				<NotesSection />
			</div>
		</ScreenProvider>
	)
}
