import { Link } from 'react-router'
import type { CartView } from '#app/features/cart/checkout.server.ts'
import { SelectField } from '#app/ui/forms.tsx'

/** Which of the person's QR codes the order is for; without one, how to get one. */
export function QrCodeSelector({ view, errors }: { view: CartView; errors?: string[] }) {
	if (!view.signedIn) return null
	if (!view.codes.length)
		return (
			<div className="rounded-lg bg-amber-50 p-3 text-gray-900" role="note">
				<p className="font-semibold">Create a QR Code First</p>
				<p className="text-sm">
					Every order carries one of your QR codes.{' '}
					<Link to="/dashboard/qr-codes" className="font-semibold text-blue-800 underline">
						Claim or create one
					</Link>
					, then come back.
				</p>
			</div>
		)
	return (
		<SelectField
			label="QR code for this order"
			errors={errors}
			placeholder="Choose one of your QR codes"
			selectProps={{
				name: 'selectedQrCodeId',
				defaultValue:
					view.codes.find((c) => c.value === view.draft.selectedQrCodeId || c.value.startsWith(`${view.draft.selectedQrCodeId}:`))?.value ??
					'',
				'aria-required': true,
			}}
			options={view.codes}
		/>
	)
}
