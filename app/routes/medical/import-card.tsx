import { Link } from 'react-router'
import { IMPORT_TITLE, importHref } from '#app/domain/sharing/options.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { useScreen } from './screen-context.tsx'
import { SectionCard } from './section-card.tsx'

/** The way to the import page: a profile can be filled from a health summary instead of item by item. */
export function ImportCard() {
	const { profileId, isOwner } = useScreen()
	// Before the profile is saved there is nothing to fill; a shared profile is filled by its owner.
	if (!profileId || !isOwner) return null
	return (
		<SectionCard id="health-summary" title="Health summary">
			<p className="mb-3 text-gray-800">
				Have an International Patient Summary (a FHIR JSON file) or a SMART Health Link from Hit Me Helpers? Add its allergies, medications,
				conditions and DNR status to this profile; you choose what is added.
			</p>
			<Link to={importHref(profileId)} className={buttonClass('secondary')}>
				{IMPORT_TITLE}
			</Link>
		</SectionCard>
	)
}
