import { ContactsSection, AllergiesSection } from './contacts-allergies.tsx'
import { DnrSection, DocumentsSection, NotesSection } from './dnr-documents-notes.tsx'
import { InsuranceSection } from './insurance.tsx'
import type { MedicalInfoData } from './medical-info.server.ts'
import { ConditionsSection, MedicationsSection } from './medications-conditions.tsx'
import { PersonalInfoSection } from './personal-info.tsx'
import { ProfileSelector } from './profile-selector.tsx'
import { ScreenProvider, type Failure } from './screen-context.tsx'
import { CareSection } from './care-section.tsx'
import { ReviewBanner } from './review-banner.tsx'
import { CaregiversSection, SharedScansSection } from './caregivers-section.tsx'
import { ImportCard } from './import-card.tsx'

/**
 * A due review first, then the ten sections of spec 001 §2, the reminder and alert settings and who helps keep the
 * profile (its owner's), or its scan history (an editor's); every form posts back here.
 */
export function MedicalInfoScreen({ data, failure, base }: { data: MedicalInfoData; failure: Failure | null; base: string }) {
	return (
		<ScreenProvider value={{ ...data, failure, base }}>
			<div className="space-y-5">
				<ReviewBanner />
				<ProfileSelector />
				<PersonalInfoSection />
				<ImportCard />
				<ContactsSection />
				<AllergiesSection />
				<MedicationsSection />
				<ConditionsSection />
				<InsuranceSection />
				<DnrSection />
				<DocumentsSection />
				<NotesSection />
				<CareSection />
				<CaregiversSection />
				<SharedScansSection />
			</div>
		</ScreenProvider>
	)
}
