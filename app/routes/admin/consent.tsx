import { consentRecords } from '#app/domain/admin/consent-records.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { StatCards } from './order-ui.tsx'
import type { Route } from './+types/consent'

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
			<div className={cardClass('overflow-x-auto')}>
				<table className="w-full text-left text-sm">
					<caption className="p-3 text-left text-gray-700">
						Current versions signed, per account{truncated ? ` (the newest ${records.length} accounts)` : ''}
					</caption>
					<thead className="border-b border-gray-300 bg-gray-50">
						<tr>
							<th scope="col" className="p-3">
								Person
							</th>
							<th scope="col" className="p-3">
								HIPAA
							</th>
							<th scope="col" className="p-3">
								Terms
							</th>
							<th scope="col" className="p-3">
								Emergency
							</th>
							<th scope="col" className="p-3">
								Total
							</th>
							<th scope="col" className="p-3">
								Most recent
							</th>
						</tr>
					</thead>
					<tbody>
						{records.map((record) => (
							<tr key={record.userId} className="border-b border-gray-200">
								<td className="p-3 break-all">
									{record.userName} · {record.email}
								</td>
								<td className="p-3">{signed(record.hipaaConsent)}</td>
								<td className="p-3">{signed(record.termsConsent)}</td>
								<td className="p-3">{signed(record.emergencyConsent)}</td>
								<td className="p-3">{record.totalConsents} of 3</td>
								<td className="p-3 whitespace-nowrap">{formatEtTime(record.mostRecentConsentDate)}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
			<section aria-labelledby="texts-title" className="space-y-2">
				<h3 id="texts-title" className="text-xl font-bold">
					The consent texts
				</h3>
				{Object.entries(texts).map(([type, text]) => (
					<details key={type} className={cardClass('p-4')}>
						<summary className="cursor-pointer font-semibold">
							{text.title} (version {text.version ?? 'none'})
						</summary>
						<p className="mt-2 whitespace-pre-line text-gray-800">{text.body}</p>
					</details>
				))}
			</section>
		</section>
	)
}
