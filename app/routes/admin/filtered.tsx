import { Form } from 'react-router'
import { filteredAnalytics } from '#app/domain/analytics/analytics.server.ts'
import { DEFAULT_FILTER_HOURS, FILTER_HOURS, INVALID_HOURS, parseFilterHours } from '#app/domain/analytics/params.ts'
import { cardClass } from '#app/ui/card.tsx'
import { chartHtml } from '#app/ui/chart-html.server.tsx'
import { BarChart } from '#app/ui/charts.tsx'
import { ServerChart } from '#app/ui/server-chart.tsx'
import { buttonClass, SelectField } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/filtered'
import { StatCards } from './order-ui.tsx'

export async function loader({ request }: Route.LoaderArgs) {
	const asked = new URL(request.url).searchParams.get('hours')
	const hours = asked === null ? DEFAULT_FILTER_HOURS : parseFilterHours(asked)
	const f = await filteredAnalytics(hours ?? DEFAULT_FILTER_HOURS)
	const chart = chartHtml(
		'real-hourly',
		<BarChart
			title="Real user visits by hour"
			description={`Pages viewed by real users in each hour of the last ${f.hours} hours, America/New_York.`}
			labelHeader="Hour starting"
			series={['Visits', 'Real users']}
			bars={f.hourlyBreakdown.map((slot) => ({ label: formatEtTime(slot.hour), values: [slot.visit_count, slot.users] }))}
		/>,
	)
	return { error: hours ? null : INVALID_HOURS, filtered: f, chart }
}

/** The Real Users tab (spec 002 §2): visits by real people only, for a chosen number of hours. */
export default function FilteredTab({ loaderData }: Route.ComponentProps) {
	const { filtered: f, error } = loaderData
	return (
		<div className="space-y-6">
			<h2 className="text-2xl font-bold text-gray-900">Real users, last {f.hours} hours</h2>
			<Form method="get" className={cardClass('flex flex-wrap items-end gap-3 p-4')}>
				<SelectField
					label="Hours"
					errors={error ? [error] : undefined}
					selectProps={{ name: 'hours', defaultValue: String(f.hours) }}
					options={FILTER_HOURS.map((hours) => ({ value: String(hours), label: `Last ${hours} hours` }))}
				/>
				<button type="submit" className={buttonClass('secondary', 'min-h-10 px-3 py-1.5 text-sm')}>
					Show
				</button>
			</Form>
			<StatCards
				columns="sm:grid-cols-3"
				stats={[
					['Real user visits', f.realUserVisits],
					['Real users', f.realUsers],
					[
						'Conversion rate',
						`${f.conversionRate}%`,
						`real users who signed up: ${f.realUsersWhoSignedUp.toLocaleString('en-US')} of ${f.realUsers.toLocaleString('en-US')}`,
					],
				]}
			/>
			<p className={cardClass('p-4 text-gray-900')}>
				{f.summary.description} Real users are people: not bots, not the owner, not addresses excluded in the settings.
			</p>
			<ServerChart html={loaderData.chart} />
		</div>
	)
}
