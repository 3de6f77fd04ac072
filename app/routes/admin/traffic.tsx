import { Form } from 'react-router'
import { trafficAnalysis } from '#app/domain/analytics/analytics.server.ts'
import { etDay } from '#app/domain/analytics/et-time.ts'
import { FIRST_TRAFFIC_DAY, INVALID_DAY, parseTrafficDay } from '#app/domain/analytics/params.ts'
import { cardClass } from '#app/ui/card.tsx'
import { chartHtml } from '#app/ui/chart-html.server.tsx'
import { BarChart, ShareChart } from '#app/ui/charts.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
import { buttonClass, Field } from '#app/ui/forms.tsx'
import { ServerChart } from '#app/ui/server-chart.tsx'
import { formatDate } from '#app/utils/dates.ts'
import type { Route } from './+types/traffic'
import { StatCards } from './order-ui.tsx'
import { Section } from './section.tsx'

const hourLabel = (hour: number) => `${hour % 12 || 12} ${hour < 12 ? 'AM' : 'PM'}`

export async function loader({ request }: Route.LoaderArgs) {
	const today = etDay(new Date())
	const asked = new URL(request.url).searchParams.get('date')
	const day = asked === null || asked === '' ? today : parseTrafficDay(asked)
	const t = await trafficAnalysis(day ?? today)
	const share = (name: string, title: string, description: string, header: string, items: Array<{ label: string; value: number }>) =>
		chartHtml(
			name,
			<ShareChart
				title={title}
				description={description}
				labelHeader={header}
				valueLabel={name === 'visitors' ? 'Visitors' : 'Visits'}
				items={items}
			/>,
		)
	const charts = {
		hourly: chartHtml(
			'hourly',
			<BarChart
				title="Visits by hour"
				description="Pages viewed and distinct visitors in each hour of the day, America/New_York."
				labelHeader="Hour (ET)"
				series={['Visits', 'Unique visitors']}
				bars={t.hourlyBreakdown.map((slot) => ({ label: hourLabel(slot.hour), values: [slot.visits, slot.uniqueVisitors] }))}
			/>,
		),
		visitors: share(
			'visitors',
			'First-time and returning visitors',
			'Distinct visitors of the day: first time, or back after an earlier day.',
			'Visitors',
			[
				{ label: 'First time', value: t.firstTimeVisitors },
				{ label: 'Returning', value: t.returningVisitors },
			],
		),
		browsers: share(
			'browsers',
			'Browsers',
			'Visits by browser family.',
			'Browser',
			t.browserStats.map((row) => ({ label: row.browser, value: row.visits })),
		),
		devices: share(
			'devices',
			'Devices',
			'Visits by device type.',
			'Device',
			t.deviceStats.map((row) => ({ label: row.device, value: row.visits })),
		),
	}
	// A date that is not a day we can show keeps what was typed, says why beside the field, and shows today.
	return { today, asked, error: day ? null : INVALID_DAY, traffic: t, charts }
}

/** The traffic tab (spec 002 §2): one ET day of people's visits (bots left out; the owner's own included). */
export default function TrafficTab({ loaderData }: Route.ComponentProps) {
	const { traffic: t, today, asked, error, charts } = loaderData
	return (
		<div className="space-y-6">
			<h2 className="text-2xl font-bold text-gray-900">Traffic, {formatDate(t.date)}</h2>
			<Form method="get" className={cardClass('flex flex-wrap items-end gap-3 p-4')}>
				<Field
					label="Day (ET)"
					errors={error ? [error] : undefined}
					inputProps={{
						name: 'date',
						type: 'date',
						defaultValue: error ? (asked ?? '') : t.date,
						min: FIRST_TRAFFIC_DAY,
						max: today,
						required: true,
					}}
				/>
				<button type="submit" className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}>
					Show
				</button>
			</Form>
			<StatCards
				stats={[
					['Visits', t.totalVisits, 'pages viewed'],
					['Unique visitors', t.uniqueVisitors],
					['First-time visitors', t.firstTimeVisitors, `${t.returningVisitors.toLocaleString('en-US')} returning`],
					['Signups', t.signups, `${t.signupsFromFirstVisit.toLocaleString('en-US')} on their first visit`],
				]}
			/>
			<Section id="insights-title" title="Insights" className={cardClass('p-4')} titleClassName="text-xl font-bold text-gray-900">
				<ul className="mt-2 list-disc space-y-1 pl-6 text-gray-900">
					{t.insights.map((insight) => (
						<li key={insight}>{insight}</li>
					))}
				</ul>
			</Section>
			<ServerChart html={charts.hourly} />
			<div className="grid gap-6 lg:grid-cols-2">
				<DataTable
					caption="Top pages"
					visibleCaption
					rows={t.topPages}
					rowKey={(page) => page.path}
					empty="No pages were viewed on this day."
					columns={[
						{ header: 'Page', className: 'break-all', cell: (page) => page.path },
						{ header: 'Visits', cell: (page) => page.visits.toLocaleString('en-US') },
					]}
				/>
				<ServerChart html={charts.visitors} />
				<ServerChart html={charts.browsers} />
				<ServerChart html={charts.devices} />
			</div>
		</div>
	)
}
