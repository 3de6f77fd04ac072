import type { SubmissionResult } from '@conform-to/react'
import { Form } from 'react-router'
import { cardClass } from '#app/ui/card.tsx'
import { CheckboxField, Field, buttonClass } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { Section } from './section.tsx'

type QueuedRequest = {
	id: number
	fullName: string
	email: string
	quantity: number
	requestStatus: string
	createdAt: string | Date
	fulfilledAt: string | Date | null
	notes: string | null
	qrCodeIds: number[]
	shippingAddress: { streetAddress: string; city: string; state: string; postalCode: string; country: string }
}

/** Spec 002: the free-request queue; Mark Completed is offered for pending requests only. */
export function RequestQueue({
	requests,
	refusal,
}: {
	requests: QueuedRequest[]
	/** A refused Mark Completed: what was typed for which request, and why. */
	refusal: SubmissionResult<string[]> | null
}) {
	const typed = (name: string) => {
		const value = refusal?.initialValue?.[name]
		return typeof value === 'string' ? value : undefined
	}
	const refusedId = typed('requestId')
	const message = Object.values(refusal?.error ?? {}).flat()[0]
	return (
		<Section id="requests-title" title="Free QR code requests" className={cardClass('space-y-3 p-4')}>
			{requests.length === 0 ? <p className="text-gray-800">No requests yet.</p> : null}
			<ul className="space-y-3">
				{requests.map((request) => {
					const a = request.shippingAddress
					const refused = refusedId === String(request.id)
					return (
						<li key={request.id} className="space-y-2 border-t border-gray-200 pt-3">
							<p className="font-semibold">
								#{request.id} {request.fullName} · <span className="break-all">{request.email}</span> · {request.quantity}{' '}
								{request.quantity === 1 ? 'code' : 'codes'} ·{' '}
								{request.requestStatus === 'pending' ? 'Pending' : `Fulfilled ${formatEtTime(request.fulfilledAt)}`}
							</p>
							<p className="text-sm text-gray-800">
								{a.streetAddress}, {a.city}, {a.state} {a.postalCode}, {a.country} · asked {formatEtTime(request.createdAt)}
							</p>
							{request.notes ? <p className="text-sm text-gray-700">Notes: {request.notes}</p> : null}
							{request.qrCodeIds.length ? <p className="text-sm text-gray-700">Codes sent: {request.qrCodeIds.join(', ')}</p> : null}
							{request.requestStatus === 'pending' ? (
								<Form method="post" className="flex flex-wrap items-end gap-3">
									<input type="hidden" name="intent" value="fulfil" />
									<input type="hidden" name="requestId" value={request.id} />
									<Field
										label="Codes sent (optional)"
										errors={refused ? [message] : undefined}
										inputProps={{
											name: 'qrCodeIds',
											id: `request-${request.id}-codes`,
											defaultValue: refused ? typed('qrCodeIds') : undefined,
											maxLength: 2000,
											placeholder: '101, 102',
										}}
									/>
									<CheckboxField
										label="E-mail the requester"
										inputProps={{ name: 'notify', id: `request-${request.id}-notify`, defaultChecked: true }}
									/>
									<button type="submit" className={buttonClass('green', 'min-h-10 px-3 py-1.5 text-sm')}>
										Mark Completed
									</button>
								</Form>
							) : null}
						</li>
					)
				})}
			</ul>
		</Section>
	)
}
