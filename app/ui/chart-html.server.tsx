import type { ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'

/**
 * A chart (app/ui/charts.tsx) as finished markup, made in the loader: the SVG needs no script, so the chart code never
 * reaches the browser. `name` keeps the ids of each chart on a page apart.
 */
export function chartHtml(name: string, chart: ReactElement) {
	return renderToStaticMarkup(chart, { identifierPrefix: `${name}-` })
}
