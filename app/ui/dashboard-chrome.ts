import { useMatches } from 'react-router'

/** What a dashboard page shows around itself: the header and tabs (default), the header only, or nothing (print). */
export type DashboardHandle = { chrome?: 'tabs' | 'header' | 'none' }

export function useDashboardChrome() {
	const leaf = useMatches().at(-1)
	return (leaf?.handle as DashboardHandle | undefined)?.chrome ?? 'tabs'
}
