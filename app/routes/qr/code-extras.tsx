import { Form, Link } from 'react-router'
import { cardClass } from '#app/ui/card.tsx'
import { buttonClass, StatusButton } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { scanPlace, scannerLabel } from '#app/domain/qr/scans.ts'
import { deleteOpener, QR_INTENTS } from './intents.ts'
import { SENDER_INTENTS } from './sender-intents.ts'
import type { QrCodesData } from './qr-codes.server.ts'

// The parts of the QR Codes tab shown only for a chosen code, loaded apart from the page (qr-codes.tsx).

type Code = QrCodesData['codes'][number]

const scanTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/New_York' })

/** The chosen code's scan history, and the dialog that deletes it: both, one or neither. */
export function CodeExtras({ history, deleting, base }: { history: QrCodesData['history']; deleting: Code | null; base: string }) {
	return (
		<>
			{history ? <ScanHistory history={history} /> : null}
			{deleting ? <DeleteDialog code={deleting} base={base} /> : null}
		</>
	)
}

function ScanHistory({ history }: { history: NonNullable<QrCodesData['history']> }) {
	return (
		<section aria-labelledby="history-title" className={cardClass('p-5')}>
			<h2 id="history-title" className="mb-3 text-xl font-bold">
				Scan history
			</h2>
			{history.scans.length ? (
				<ul className="divide-y divide-gray-200">
					{history.scans.map((scan) => (
						<li key={scan.id} className="py-2">
							<p>
								{scanTime.format(scan.scannedAt)} ET · {scannerLabel(scan.scannerType)} · {scan.deviceType ?? 'Unknown device'} ·{' '}
								{scanPlace(scan)}
							</p>
							<p className="text-gray-700">
								Emergency access: {scan.isEmergencyAccess ? 'Yes' : 'No'}
								{scan.medicalFacility ? ` · Medical facility: ${scan.medicalFacility}` : ''}
							</p>
						</li>
					))}
				</ul>
			) : (
				<p className="text-gray-700">This code has not been scanned yet.</p>
			)}
			{history.reports.length ? <HelpingReports codeId={history.codeId} reports={history.reports} /> : null}
		</section>
	)
}

type Report = NonNullable<QrCodesData['history']>['reports'][number]

/** What "I'm helping" senders wrote from this code, as they typed it (plain text), and a way to block a sender. */
function HelpingReports({ codeId, reports }: { codeId: number; reports: Report[] }) {
	return (
		<>
			<h3 className="mt-5 mb-2 text-lg font-bold">“I’m helping” messages</h3>
			<ul className="divide-y divide-gray-200">
				{reports.map((report) => (
					<li key={report.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
						<div className="min-w-0">
							<p className="font-semibold">
								{scanTime.format(report.createdAt)} ET ·{' '}
								{report.blocked
									? 'sender blocked'
									: report.mailedAt
										? `e-mailed to ${report.recipients} ${report.recipients === 1 ? 'person' : 'people'}`
										: 'waiting to go with their next update'}
							</p>
							<p className="break-words whitespace-pre-line text-gray-800">{report.message ?? 'No details.'}</p>
							{report.location ? <p className="text-gray-700">Shared location: {report.location}</p> : null}
						</div>
						<Form method="post" preventScrollReset>
							<input type="hidden" name="codeId" value={codeId} />
							<input type="hidden" name="reportId" value={report.id} />
							<StatusButton
								type="submit"
								name="intent"
								value={report.blocked ? SENDER_INTENTS.unblock : SENDER_INTENTS.block}
								variant="secondary"
								aria-label={`${report.blocked ? 'Unblock the sender' : 'Block the sender'} of the message at ${scanTime.format(report.createdAt)} ET`}
							>
								{report.blocked ? 'Unblock sender' : 'Block this sender'}
							</StatusButton>
						</Form>
					</li>
				))}
			</ul>
		</>
	)
}

function DeleteDialog({ code, base }: { code: Code; base: string }) {
	return (
		<Modal title="Delete this QR code?" closeHref={`${base}?code=${code.id}`} start="close" opener={deleteOpener(code.id)}>
			<p className="text-gray-800">
				{code.source === 'self'
					? 'The code and its scan history are deleted. Printed copies will show “Unknown QR code”.'
					: 'This printed sticker leaves your account and returns to unclaimed: its colours and scan history are removed, and scanning it shows only how to activate it. The PIN printed on it can claim it again.'}
			</p>
			<Form method="post" className="mt-6 flex justify-end gap-2">
				<input type="hidden" name="codeId" value={code.id} />
				<OfflineMessage title="Error" description="Failed to delete QR code" />
				<Link to={`${base}?code=${code.id}#${deleteOpener(code.id)}`} className={buttonClass('secondary')}>
					Cancel
				</Link>
				<StatusButton type="submit" name="intent" value={QR_INTENTS.remove}>
					Delete QR Code
				</StatusButton>
			</Form>
		</Modal>
	)
}
