import { analyticsCsvLines } from '#app/domain/analytics/analytics.server.ts'
import { etDay } from '#app/domain/analytics/et-time.ts'
import { TimeRangeSchema } from '#app/domain/admin/time-range.ts'
import { csvResponse } from '#app/utils/csv.ts'
import type { Route } from './+types/analytics-csv'

/** The header's Export CSV: the range's figures, growth and recent activity, made on the server (works without JavaScript). */
export function loader({ request }: Route.LoaderArgs) {
	const range = TimeRangeSchema.parse(new URL(request.url).searchParams.get('range') ?? undefined)
	return csvResponse(analyticsCsvLines(range), `hmh-analytics-${range}-${etDay(new Date())}.csv`)
}
