import { Link } from 'react-router'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import type { QrCodesData } from './qr-codes.server.ts'

// Parts of the QR Codes tab only some people see, loaded apart from the page (qr-codes.tsx).

/** For a person without any code yet: the two ways to one. */
export function FreeCodeCard() {
	return (
		<section aria-labelledby="free-title" className={cardClass('p-5 text-center')}>
			<h2 id="free-title" className="text-xl font-bold">
				Get Your Free Medical QR Code
			</h2>
			<p className="mt-2 text-gray-700">Claim a sticker or card you already hold with its PIN, or ask us to mail you one for free.</p>
			<div className="mt-4 flex flex-wrap justify-center gap-3">
				<a href="#claim-pin" className={buttonClass('primary')}>
					Enter PIN Code
				</a>
				<Link to="/request-qr" className={buttonClass('blue')}>
					Request QR Code
				</Link>
			</div>
		</section>
	)
}

/** Codes whose profile was deleted show the neutral page; the person is told which, and how to fix it. */
export function UnlinkedNotice({ codes }: { codes: QrCodesData['codes'] }) {
	const unlinked = codes.filter((c) => !c.medicalProfileId)
	return (
		<p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
			<strong>{unlinked.length === 1 ? '1 QR code needs a profile' : `${unlinked.length} QR codes need a profile`}:</strong>{' '}
			{unlinked.map((c) => (c.pin ? `sticker ${c.pin}` : `code #${c.id}`)).join(', ')}. Until you link{' '}
			{unlinked.length === 1 ? 'it' : 'each'} to a profile below, scanning shows only that the code is not active.
		</p>
	)
}
