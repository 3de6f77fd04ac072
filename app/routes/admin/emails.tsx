import { emailAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { DataTable } from '#app/ui/data-table.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/emails'
import { StatCards } from './order-ui.tsx'
import { Section } from './section.tsx'

export async function loader() {
	return emailAnalytics()
}

/** The Emails tab (spec 002 §2): messages sent, opened and clicked, and the visits their links brought. */
export default function EmailsTab({ loaderData }: Route.ComponentProps) {
	const { email: e, visits: v } = loaderData
	return (
		<div className="space-y-6">
			<h2 className="text-2xl font-bold text-gray-900">Emails</h2>
			<StatCards
				stats={[
					['Sent', e.totalSent],
					['Opened', e.totalOpened, `${e.openRate}% open rate`],
					['Clicked', e.totalClicked, `${e.clickRate}% click rate`],
					['Opened by a mail proxy only', e.machineOpens, 'not counted as opened'],
				]}
			/>
			<p className="text-sm text-gray-700">
				An open is counted when a message's images load, or when one of its links is followed. Apple Mail Privacy Protection and Gmail's
				image proxy load images without a person reading: those are shown apart.
			</p>
			<DataTable
				caption="The 10 newest messages"
				visibleCaption
				rows={e.recentEmails}
				rowKey={(message) => message.id}
				empty="No e-mail has been sent yet."
				columns={[
					{ header: 'To', className: 'break-all', cell: (message) => message.email },
					{ header: 'Type', cell: (message) => message.emailType },
					{ header: 'Sent', className: 'whitespace-nowrap', cell: (message) => formatEtTime(message.sentAt) || 'Not yet' },
					{ header: 'Opened', cell: (message) => (message.opened ? 'Yes' : 'No') },
					{ header: 'Clicked', cell: (message) => (message.clicked ? 'Yes' : 'No') },
				]}
			/>
			<Section
				id="email-visits-title"
				title={<>Visits from e-mails, last {v.days} days</>}
				className="space-y-3"
				titleClassName="text-xl font-bold text-gray-900"
			>
				<StatCards
					columns="sm:grid-cols-2"
					stats={[
						['Visits from e-mail links', v.totalVisitsFromEmails],
						['Visitors from e-mail links', v.uniqueVisitorsFromEmails],
					]}
				/>
				<DataTable
					caption="The 10 newest visits from e-mail links"
					rows={v.recentVisits}
					rowKey={(visit) => visit.id}
					empty="Nobody has followed an e-mail link yet."
					columns={[
						{ header: 'Page', className: 'break-all', cell: (visit) => visit.pageUrl },
						{ header: 'When', className: 'whitespace-nowrap', cell: (visit) => formatEtTime(visit.visitedAt) },
						{ header: 'Address', cell: (visit) => visit.ipAddress ?? 'Cleared after 48 hours' },
					]}
				/>
			</Section>
		</div>
	)
}
