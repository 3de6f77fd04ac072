import { scanAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { chartHtml } from '#app/ui/chart-html.server.tsx'
import { LineChart, ShareChart } from '#app/ui/charts.tsx'
import { ServerChart } from '#app/ui/server-chart.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
import { buttonClass } from '#app/ui/forms.tsx'
import { formatDate, formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/qr-scans'
import { StatCards } from './order-ui.tsx'
import { scanPlace, scannerLabel } from '#app/domain/qr/scans.ts'
import { Section } from './section.tsx'

export async function loader() {
	const s = await scanAnalytics()
	return {
		...s,
		charts: {
			perDay: chartHtml(
				'scans-per-day',
				<LineChart
					title="Scans per day, last 30 days"
					description="Every recorded scan of any code, per day (America/New_York)."
					labelHeader="Day"
					valueLabel="Scans"
					points={s.scansPerDay.map((day) => ({ label: formatDate(day.date), value: day.scans }))}
				/>,
			),
			scanners: chartHtml(
				'scanners',
				<ShareChart
					title="Who scanned"
					description="Scans by scanner type, since the start."
					labelHeader="Scanner"
					valueLabel="Scans"
					items={Object.entries(s.scannerTypes).map(([type, count]) => ({ label: scannerLabel(type), value: count }))}
				/>,
			),
			devices: chartHtml(
				'devices',
				<ShareChart
					title="Devices"
					description="Scans by the scanning device's type, since the start."
					labelHeader="Device"
					valueLabel="Scans"
					items={Object.entries(s.deviceTypes).map(([type, count]) => ({ label: type, value: count }))}
				/>,
			),
		},
	}
}

/** The qr-scans tab (spec 002 §2): totals, scanner and device types, the last 30 days, the newest scans, CSV export. */
export default function QrScansTab({ loaderData: s }: Route.ComponentProps) {
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h2 className="text-2xl font-bold text-gray-900">QR scans</h2>
				<a href="/api/qr-scan/export" download className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}>
					Export scans (CSV)
				</a>
			</div>
			<StatCards
				stats={[
					['Total scans', s.totalScans, 'since the start'],
					['Emergency access', s.emergencyScans, 'scans by someone helping'],
					['Last scan', s.lastScanAt ? formatEtTime(s.lastScanAt) : 'None yet'],
					['Scans, last 30 days', s.scansPerDay.reduce((sum, day) => sum + day.scans, 0)],
				]}
			/>
			<ServerChart html={s.charts.perDay} />
			<div className="grid gap-6 lg:grid-cols-2">
				<ServerChart html={s.charts.scanners} />
				<ServerChart html={s.charts.devices} />
			</div>
			<Section id="recent-scans-title" title="Recent scans" className="space-y-2" titleClassName="text-xl font-bold text-gray-900">
				<DataTable
					caption="The 10 newest scans"
					rows={s.recentScans}
					rowKey={(scan) => scan.id}
					empty="No code has been scanned yet."
					columns={[
						{ header: 'When', className: 'whitespace-nowrap', cell: (scan) => formatEtTime(scan.scannedAt) },
						{ header: 'Code', cell: (scan) => `#${scan.qrCodeId}` },
						{ header: 'Scanner', cell: (scan) => scannerLabel(scan.scannerType) },
						{ header: 'Emergency', cell: (scan) => (scan.isEmergencyAccess ? 'Yes' : 'No') },
						{ header: 'Device', className: 'capitalize', cell: (scan) => scan.deviceType ?? 'Unknown' },
						{ header: 'Place', cell: scanPlace },
						{ header: 'Facility', cell: (scan) => scan.medicalFacility ?? '—' },
						{
							header: 'Viewed for',
							cell: (scan) => (scan.viewDurationSeconds === null ? 'Not measured' : `${scan.viewDurationSeconds} s`),
						},
					]}
				/>
				<p className="text-sm text-gray-700">
					Places come only from a trusted proxy's location headers; a facility only when a responder names it. How long a page was viewed is
					not measured: the responder page runs no script.
				</p>
			</Section>
		</div>
	)
}
