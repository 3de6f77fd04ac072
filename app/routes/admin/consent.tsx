import { consentRecords } from '#app/domain/admin/consent-records.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { StatCards } from './order-ui.tsx'
import type { Route } from './+types/consent'
import { Section } from './section.tsx'

export async function loader() {
	return consentRecords()
}

const signed = (value: { signed: boolean }) => (value.signed ? 'Signed' : 'Missing')

export default function ConsentTab({ loaderData }: Route.ComponentProps) {
	const { records, texts, stats, truncated } = loaderData
	return (
		<section aria-labelledby="consent-title" className="space-y-4">
			<h2 id="consent-title" className="text-2xl font-bold text-gray-900">
				Consent records
			</h2>
			<StatCards
				stats={
					[
						['Accounts', stats.total],
						['HIPAA consent', stats.hipaa],
						['Terms', stats.terms],
						['Emergency disclaimer', stats.emergency_disclaimer],
					] as const
				}
			/>
			<DataTable
				caption={`Current versions signed, per account${truncated ? ` (the newest ${records.length} accounts)` : ''}`}
				visibleCaption
				rows={records}
				rowKey={(record) => record.userId}
				empty="No accounts yet."
				columns={[
					{ header: 'Person', className: 'break-all', cell: (record) => `${record.userName} · ${record.email}` },
					{ header: 'HIPAA', cell: (record) => signed(record.hipaaConsent) },
					{ header: 'Terms', cell: (record) => signed(record.termsConsent) },
					{ header: 'Emergency', cell: (record) => signed(record.emergencyConsent) },
					{ header: 'Total', cell: (record) => `${record.totalConsents} of 3` },
					{ header: 'Most recent', className: 'whitespace-nowrap', cell: (record) => formatEtTime(record.mostRecentConsentDate) },
				]}
			/>
			<Section id="texts-title" title="The consent texts" className="space-y-2">
				{Object.entries(texts).map(([type, text]) => (
					<details key={type} className={cardClass('p-4')}>
						<summary className="cursor-pointer font-semibold">
							{text.title} (version {text.version ?? 'none'})
						</summary>
						<p className="mt-2 whitespace-pre-line text-gray-800">{text.body}</p>
					</details>
				))}
			</Section>
		</section>
	)
}
