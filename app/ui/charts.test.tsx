import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { BarChart, downsample, LineChart, niceScale, ShareChart } from './charts.tsx'

const HOURS = 2_160

/** `2024-01-01 00:00`, one an hour: 90 days' worth at 2,160. */
function hourLabels(count: number) {
	const start = Date.UTC(2024, 0, 1)
	return Array.from({ length: count }, (_, i) => new Date(start + i * 3_600_000).toISOString().slice(0, 16).replace('T', ' '))
}

function svgOf(html: string) {
	const match = html.match(/<svg role="img"[^>]*>/)
	expect(match, 'a chart <svg role="img">').not.toBeNull()
	return match?.[0] ?? ''
}

/** The chart svg's aria-labelledby names exactly its <title> and <desc>, both in the markup. */
function expectNamedSvg(html: string, title: string) {
	const ids =
		svgOf(html)
			.match(/aria-labelledby="([^"]+)"/)?.[1]
			?.split(' ') ?? []
	expect(ids).toHaveLength(2)
	const [titleId, descId] = ids
	expect(titleId).not.toBe(descId)
	expect(html).toContain(`<title id="${titleId}">${title}</title>`)
	expect(html).toMatch(new RegExp(`<desc id="${descId}">[^<]+</desc>`))
}

/** The chart's own svg, without the legend's swatches. */
function chartSvg(html: string) {
	return html.match(/<svg role="img"[\s\S]*?<\/svg>/)?.[0] ?? ''
}

function bodyRows(html: string) {
	const body = html.match(/<tbody>([\s\S]*)<\/tbody>/)?.[1] ?? ''
	return body.match(/<tr>/g)?.length ?? 0
}

function expectClean(html: string) {
	expect(html).not.toContain('NaN')
	expect(html).not.toContain('Infinity')
	expect(html).not.toContain('undefined')
}

function polylinePoints(html: string) {
	const attr = html.match(/<polyline points="([^"]+)"/)?.[1] ?? ''
	return attr.split(' ').filter(Boolean)
}

describe('niceScale', () => {
	test('gives round gridlines that reach the highest value', () => {
		expect(niceScale(1234, true)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] })
		expect(niceScale(7, true)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] })
		expect(niceScale(1, true)).toEqual({ top: 1, ticks: [0, 1] })
		expect(niceScale(0.3, false).ticks).toEqual([0, 0.1, 0.2, 0.3])
	})
	test('never divides by zero', () => {
		expect(niceScale(0, true)).toEqual({ top: 1, ticks: [0] })
		expect(niceScale(Number.NaN, true)).toEqual({ top: 1, ticks: [0] })
	})
})

describe('downsample', () => {
	test('keeps the highest value of each group, at most the cap', () => {
		const rows = Array.from({ length: 10 }, (_, i) => ({ label: `r${i}`, values: [i === 7 ? 99 : 1] }))
		const { size, groups } = downsample(rows, 4)
		expect(size).toBe(3)
		expect(groups.map((g) => g.values[0])).toEqual([1, 1, 99, 1])
		expect(groups[2]).toMatchObject({ first: 'r6', last: 'r8' })
	})
})

describe('LineChart', () => {
	const base = { title: 'New users per day', description: 'People who signed up each day.', valueLabel: 'New users', labelHeader: 'Day' }

	test('says there is no data, with no NaN and no table', () => {
		const html = renderToStaticMarkup(<LineChart {...base} points={[]} />)
		expect(html).toContain('No data for this period')
		expectClean(html)
		expect(html).not.toContain('<table')
		expectNamedSvg(html, base.title)
	})

	test('is a figure with a visible caption, a named svg and the numbers in a table', () => {
		const points = [
			{ label: '2024-05-01', value: 3 },
			{ label: '2024-05-02', value: 1234567 },
			{ label: '2024-05-03', value: 12 },
		]
		const html = renderToStaticMarkup(<LineChart {...base} points={points} />)
		expect(html).toMatch(/^<figure[^>]*><figcaption[^>]*>New users per day<\/figcaption>/)
		expectNamedSvg(html, base.title)
		expect(svgOf(html)).toContain('viewBox="0 0 640 220"')
		expect(svgOf(html)).toContain('width="100%"')
		expect(html).toContain('<details')
		expect(html).toContain('<summary class="cursor-pointer text-blue-700 underline">Show data table</summary>')
		// The table scrolls in a region the keyboard reaches, named by the table's caption.
		expect(html).toMatch(
			/<div role="region" tabindex="0" aria-labelledby="([^"]+)"[^>]*><table[^>]*><caption id="\1" class="sr-only">New users per day<\/caption>/,
		)
		expect(html).toContain('<th scope="col">Day</th><th scope="col">New users</th>')
		expect(html).toContain('<th scope="row">2024-05-02</th><td>1,234,567</td>')
		expect(bodyRows(html)).toBe(3)
		expect(html).toContain('Highest New users: 1,234,567 (2024-05-02).')
		expect(polylinePoints(html)).toHaveLength(3)
		// Round gridlines, up to the highest value.
		expect(html).toMatch(/>1,500,000<\/text>/)
		expect(html).not.toContain('No data for this period')
	})

	test('draws one point without NaN', () => {
		const html = renderToStaticMarkup(<LineChart {...base} points={[{ label: 'Today', value: 5 }]} />)
		expectClean(html)
		expect(html).toContain('<circle')
		expect(html).toContain('<th scope="row">Today</th><td>5</td>')
		expect(bodyRows(html)).toBe(1)
	})

	test('draws all-zero, negative and non-finite values as 0', () => {
		const points = [
			{ label: 'a', value: 0 },
			{ label: 'b', value: -5 },
			{ label: 'c', value: Number.NaN },
			{ label: 'd', value: Number.POSITIVE_INFINITY },
		]
		const html = renderToStaticMarkup(<LineChart {...base} points={points} />)
		expectClean(html)
		expect(html).not.toMatch(/>-\d/)
		expect(html.match(/<td>0<\/td>/g)).toHaveLength(4)
		expect(html).toContain('all values are 0')
		expect(chartSvg(html)).toContain('>All values are 0</text>')
	})

	test('downsamples 2,160 points for drawing but keeps every row in the table', () => {
		const labels = hourLabels(HOURS)
		const points = labels.map((label, i) => ({ label, value: i === 1000 ? 6000 : (i * 7919) % 97 }))
		const html = renderToStaticMarkup(<LineChart {...base} points={points} />)
		expectClean(html)
		expect(bodyRows(html)).toBe(HOURS)
		for (const label of labels) expect(html).toContain(`<th scope="row">${label}</th>`)
		const plotted = polylinePoints(html)
		expect(plotted.length).toBeGreaterThan(100)
		expect(plotted.length).toBeLessThanOrEqual(400)
		// The spike survives downsampling: the line reaches the top gridline (6,000).
		expect(html).toMatch(/>6,000<\/text>/)
		expect(Math.min(...plotted.map((p) => Number(p.split(',')[1])))).toBe(12)
		expect(html).toContain('consecutive rows; the data table lists every row')
		expect(html.length).toBeLessThan(200_000)
	})
})

describe('BarChart', () => {
	const base = { title: 'Visits by hour', description: 'Visits in each hour of the day.', labelHeader: 'Hour' }

	test('says there is no data, with no NaN', () => {
		const html = renderToStaticMarkup(<BarChart {...base} bars={[]} series={['Visits', 'Unique visitors']} />)
		expect(html).toContain('No data for this period')
		expectClean(html)
		expectNamedSvg(html, base.title)
	})

	test('two series: grouped bars, told apart by pattern, with a text legend naming both', () => {
		const bars = Array.from({ length: 24 }, (_, h) => ({ label: String(h).padStart(2, '0'), values: [h * 10, h * 4] }))
		const html = renderToStaticMarkup(<BarChart {...base} bars={bars} series={['Visits', 'Unique visitors']} />)
		expectClean(html)
		expectNamedSvg(html, base.title)
		const legend = html.match(/<ul[^>]*aria-label="Legend"[^>]*>([\s\S]*?)<\/ul>/)?.[1] ?? ''
		expect(legend).toContain('Visits')
		expect(legend).toContain('Unique visitors')
		expect(legend).toContain('(solid)')
		expect(legend).toContain('(striped)')
		// The second series is filled with a hatch <pattern> defined in the chart, not a second colour alone.
		const patternId = html.match(/<pattern id="([^"]+)"/)?.[1]
		expect(patternId).toBeTruthy()
		expect(html).toContain(`fill="url(#${patternId})"`)
		expect(html).toContain('<th scope="col">Hour</th><th scope="col">Visits</th><th scope="col">Unique visitors</th>')
		expect(html).toContain('<th scope="row">23</th><td>230</td><td>92</td>')
		expect(bodyRows(html)).toBe(24)
		// Hour 00 is all zero: 23 hours × 2 series of visible bars.
		expect(chartSvg(html).match(/<rect x=/g)).toHaveLength(46)
	})

	test('one bar, and missing or negative values as 0', () => {
		const html = renderToStaticMarkup(
			<BarChart {...base} bars={[{ label: 'Only', values: [-3] }]} series={['Visits', 'Unique visitors']} />,
		)
		expectClean(html)
		expect(html).toContain('<th scope="row">Only</th><td>0</td><td>0</td>')
		expect(html).not.toMatch(/>-\d/)
	})

	test('all-zero values draw no bars and no NaN', () => {
		const bars = Array.from({ length: 5 }, (_, i) => ({ label: `b${i}`, values: [0] }))
		const html = renderToStaticMarkup(<BarChart {...base} bars={bars} series={['Visits']} />)
		expectClean(html)
		expect(chartSvg(html)).not.toMatch(/<rect x=/)
		expect(chartSvg(html)).toContain('All values are 0')
		expect(bodyRows(html)).toBe(5)
	})

	test('2,160 bars: downsampled drawing, every row in the table, bounded markup', () => {
		const labels = hourLabels(HOURS)
		const bars = labels.map((label, i) => ({ label, values: [(i % 24) * 3 + 1, (i % 24) + 1] }))
		const html = renderToStaticMarkup(<BarChart {...base} bars={bars} series={['Visits', 'Unique visitors']} />)
		expectClean(html)
		expect(bodyRows(html)).toBe(HOURS)
		for (const label of labels) expect(html).toContain(`<th scope="row">${label}</th>`)
		const drawn = chartSvg(html).match(/<rect x=/g)?.length ?? 0
		expect(drawn).toBeGreaterThan(100)
		expect(drawn).toBeLessThanOrEqual(400)
		expect(html.length).toBeLessThan(200_000)
	})
})

describe('ShareChart', () => {
	const base = { title: 'Devices', description: 'Visits by device type.', labelHeader: 'Device' }

	test('says there is no data, with no NaN', () => {
		const html = renderToStaticMarkup(<ShareChart {...base} items={[]} />)
		expect(html).toContain('No data for this period')
		expectClean(html)
		expectNamedSvg(html, base.title)
	})

	test('shows value and percentage per row, in the chart and the table', () => {
		const items = [
			{ label: 'Mobile', value: 3000 },
			{ label: 'Desktop', value: 1000 },
			{ label: 'Tablet', value: -2 },
		]
		const html = renderToStaticMarkup(<ShareChart {...base} items={items} />)
		expectClean(html)
		expectNamedSvg(html, base.title)
		expect(html).toContain('>3,000 (75%)</text>')
		expect(html).toContain('>1,000 (25%)</text>')
		expect(html).toContain('>0 (0%)</text>')
		expect(html).toContain('<th scope="col">Device</th><th scope="col">Count</th><th scope="col">Share</th>')
		expect(html).toContain('<th scope="row">Mobile</th><td>3,000</td><td>75%</td>')
		expect(html).toContain('Largest: Mobile, 3,000 (75%).')
		expect(bodyRows(html)).toBe(3)
	})

	test('one item is 100%; all-zero items are 0% without dividing by zero', () => {
		const one = renderToStaticMarkup(<ShareChart {...base} items={[{ label: 'Mobile', value: 7 }]} />)
		expect(one).toContain('>7 (100%)</text>')
		const zero = renderToStaticMarkup(
			<ShareChart
				{...base}
				items={[
					{ label: 'First visit', value: 0 },
					{ label: 'Returning', value: 0 },
				]}
			/>,
		)
		expectClean(zero)
		expect(zero.match(/>0 \(0%\)<\/text>/g)).toHaveLength(2)
	})

	test('2,160 items: the largest drawn plus Other, every row in the table, bounded markup', () => {
		const labels = hourLabels(HOURS)
		const items = labels.map((label, i) => ({ label, value: i === 5 ? 100_000 : i + 1 }))
		const html = renderToStaticMarkup(<ShareChart {...base} items={items} />)
		expectClean(html)
		expect(bodyRows(html)).toBe(HOURS)
		for (const label of labels) expect(html).toContain(`<th scope="row">${label}</th>`)
		expect(html).toContain(`>${labels[5]}</text>`)
		expect(html).toContain('>Other (2,151)</text>')
		expect(html.length).toBeLessThan(200_000)
	})
})

test('charts on one page get distinct ids', () => {
	const html = renderToStaticMarkup(
		<>
			<LineChart title="A" description="a" valueLabel="v" labelHeader="Day" points={[{ label: 'x', value: 1 }]} />
			<LineChart title="B" description="b" valueLabel="v" labelHeader="Day" points={[{ label: 'x', value: 1 }]} />
			<BarChart title="C" description="c" labelHeader="Hour" series={['s', 't']} bars={[{ label: 'x', values: [1, 2] }]} />
		</>,
	)
	const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
	expect(ids.length).toBeGreaterThanOrEqual(6)
	expect(new Set(ids).size).toBe(ids.length)
})
