import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { GivingUnavailable } from '../../ui/giving-unavailable.tsx'
import { TierCards } from '../../features/donation/tier-cards.tsx'

/** The header's Support Us dialog: spec 002's tier cards, giving from the dashboard. */
/** Whether online giving works here, for the Support Us dialog. */
export type DashboardGiving = { enabled: boolean; inPage: boolean; supportEmail: string }

export function SupportDialog({ closeHref, giving }: { closeHref: string; giving: DashboardGiving }) {
	return (
		<Modal title="Support Our Mission" closeHref={closeHref} start="title" wide>
			<p className="mb-4 text-gray-800">
				Hit Me Helpers is free for everyone and runs on donations. Every gift goes to printing and mailing QR codes and keeping the service
				online.
			</p>
			{giving.enabled ? <TierCards signedIn inPage={giving.inPage} /> : <GivingUnavailable supportEmail={giving.supportEmail} />}
			<div className="mt-5 flex flex-wrap justify-end gap-2">
				<Link to="/payment-options" className={buttonClass('secondary')}>
					Payment Options
				</Link>
				<Link to="/pricing" className={buttonClass('secondary')}>
					Give Monthly
				</Link>
			</div>
		</Modal>
	)
}
