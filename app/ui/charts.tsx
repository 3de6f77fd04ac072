import { useId, type ReactNode } from 'react'
import { ScrollTable } from './scroll-table.tsx'

/**
 * Server-rendered SVG charts for the owner's dashboards: plain markup, no client JavaScript, no dependencies.
 * Each chart is a <figure> whose <svg role="img"> is named by its own <title>/<desc>, and whose numbers are also in a
 * real <table> inside a <details> disclosure, so they read out, work with JavaScript off and print.
 * Values that are negative or not finite count as 0. Long series are drawn downsampled (the highest value of each
 * group of rows), but the table always lists every row.
 */

export type ChartPoint = { label: string; value: number }
export type ChartBar = { label: string; values: number[] }

export type LineChartProps = {
	title: string
	description: string
	points: ChartPoint[]
	/** What the values count, e.g. 'New users'; heads the table's value column. */
	valueLabel: string
	/** Names the table's first column, e.g. 'Day'. */
	labelHeader: string
}

export type BarChartProps = {
	title: string
	description: string
	labelHeader: string
	/** `values[i]` belongs to `series[i]`; a missing value counts as 0. */
	bars: ChartBar[]
	/** Series names, shown in the legend and as table headers; 2 series are drawn as grouped bars. */
	series: string[]
}

export type ShareChartProps = {
	title: string
	description: string
	labelHeader: string
	items: ChartPoint[]
	/** Heads the table's value column; 'Count' unless given. */
	valueLabel?: string
}

export const NO_DATA_TEXT = 'No data for this period'

const WIDTH = 640
const HEIGHT = 220
const PAD_TOP = 12
const PAD_RIGHT = 16
const PAD_BOTTOM = 30
const FONT_SIZE = 12
/** Rough width of one character at FONT_SIZE, for laying out labels without measuring them. */
const CHAR_W = 6.8
const MAX_LINE_POINTS = 400
const MAX_BAR_GROUPS = 200
const MAX_SHARE_ROWS = 10
const MARKER_LIMIT = 31
/** x labels longer than this are cut short with '…' (the table has them in full). */
const X_LABEL_CHARS = 16
const BAR_TOOLTIP_LIMIT = 60

const TEXT = '#1f2937'
const MUTED = '#4b5563'
const GRID = '#e5e7eb'
const AXIS = '#6b7280'
const TRACK = '#f3f4f6'
const AREA = '#dbeafe'
const SERIES_COLORS = ['#1d4ed8', '#b91c1c', '#047857', '#6d28d9'] as const

/** Negative, non-finite or non-number values count as 0; huge ones are capped so sums stay finite. */
function clean(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, Number.MAX_SAFE_INTEGER) : 0
}

function fmt(value: number) {
	return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

function percent(value: number, total: number) {
	if (!(total > 0) || value <= 0) return '0%'
	const p = (value / total) * 100
	return p < 0.1 ? '<0.1%' : `${p.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`
}

/** Coordinates to one decimal: enough for a 640-wide viewBox, and it keeps the markup small. */
function r1(n: number) {
	return Math.round(n * 10) / 10
}

function short(label: string, max: number) {
	return label.length > max ? `${label.slice(0, max - 1)}…` : label
}

function asLabel(label: unknown) {
	return typeof label === 'string' ? label : label == null ? '' : String(label)
}

/** Round gridline values from 0 to at least `max` (about 4 steps of 1, 2 or 5 × 10ⁿ); whole steps for whole data. */
export function niceScale(max: number, integers: boolean): { top: number; ticks: number[] } {
	if (!(max > 0) || !Number.isFinite(max)) return { top: 1, ticks: [0] }
	const raw = max / 4
	const magnitude = 10 ** Math.floor(Math.log10(raw))
	const residual = raw / magnitude
	let step = (residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10) * magnitude
	if (integers) step = Math.max(1, Math.round(step))
	const count = Math.max(1, Math.ceil(max / step - 1e-9))
	const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toPrecision(12)))
	const top = ticks[ticks.length - 1] ?? max
	return Number.isFinite(top) && top > 0 ? { top, ticks } : { top: max, ticks: [0, max] }
}

type Row = { label: string; values: number[] }
type Group = { first: string; last: string; values: number[] }

/** At most `cap` groups of consecutive rows, each keeping the highest value per series, so peaks stay visible. */
export function downsample(rows: Row[], cap: number): { size: number; groups: Group[] } {
	const size = Math.max(1, Math.ceil(rows.length / cap))
	const groups: Group[] = []
	for (let i = 0; i < rows.length; i += size) {
		const chunk = rows.slice(i, i + size)
		const values = (chunk[0]?.values ?? []).map((_, s) => Math.max(...chunk.map((row) => row.values[s] ?? 0)))
		groups.push({ first: chunk[0]?.label ?? '', last: chunk[chunk.length - 1]?.label ?? '', values })
	}
	return { size, groups }
}

function groupLabel(group: Group) {
	return group.first === group.last ? group.first : `${group.first} – ${group.last}`
}

function labelsThatFit(plotWidth: number, longest: number) {
	return Math.max(1, Math.min(12, Math.floor(plotWidth / (longest * CHAR_W + 16))))
}

/** Indices of the x labels under bars: every `stride`-th, as many as fit side by side. */
function strideIndices(count: number, plotWidth: number, longest: number) {
	const stride = Math.max(1, Math.ceil(count / labelsThatFit(plotWidth, longest)))
	const out: number[] = []
	for (let i = 0; i < count; i += stride) out.push(i)
	return out
}

/** Indices of the x labels under a line: spread evenly from the first point to the last. */
function spreadIndices(count: number, plotWidth: number, longest: number) {
	const m = Math.min(count, labelsThatFit(plotWidth, longest))
	if (m <= 1) return count > 0 ? [0] : []
	return Array.from({ length: m }, (_, k) => Math.round((k * (count - 1)) / (m - 1)))
}

/** Keeps an x label inside the viewBox: anchored at its start or end near the edges. */
function anchorFor(x: number, text: string): 'start' | 'middle' | 'end' {
	const half = (text.length * CHAR_W) / 2
	if (x - half < 0) return 'start'
	if (x + half > WIDTH) return 'end'
	return 'middle'
}

function useChartIds() {
	const base = `chart${useId().replace(/[^A-Za-z0-9_-]/g, '')}`
	return { title: `${base}-title`, desc: `${base}-desc`, pattern: (s: number) => `${base}-fill${s}` }
}

function YAxis({ ticks, top, left, plotHeight }: { ticks: number[]; top: number; left: number; plotHeight: number }) {
	return (
		<g>
			{ticks.map((tick) => {
				const y = r1(PAD_TOP + plotHeight - (tick / top) * plotHeight)
				return (
					<g key={tick}>
						<line x1={left} x2={WIDTH - PAD_RIGHT} y1={y} y2={y} stroke={tick === 0 ? AXIS : GRID} strokeWidth={1} />
						<text x={left - 6} y={y} dy="0.32em" textAnchor="end" fill={MUTED}>
							{fmt(tick)}
						</text>
					</g>
				)
			})}
		</g>
	)
}

/** Prints the x labels, skipping any that would run into the one before it (edge labels are anchored inwards). */
function XLabels({ labels }: { labels: Array<{ x: number; text: string }> }) {
	let end = -Infinity
	const placed: Array<{ x: number; text: string; anchor: 'start' | 'middle' | 'end' }> = []
	for (const { x, text } of labels) {
		const anchor = anchorFor(x, text)
		const width = text.length * CHAR_W
		const start = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2
		if (start < end + 8) continue
		placed.push({ x, text, anchor })
		end = start + width
	}
	return (
		<g>
			{placed.map(({ x, text, anchor }, i) => (
				<text key={i} x={r1(x)} y={HEIGHT - 10} textAnchor={anchor} fill={MUTED}>
					{text}
				</text>
			))}
		</g>
	)
}

function leftMargin(ticks: number[]) {
	return Math.max(32, Math.max(...ticks.map((t) => fmt(t).length)) * CHAR_W + 12)
}

/** Solid, hatched, dotted, then outlined: the series differ by more than colour. */
function SeriesPatterns({ count, id }: { count: number; id: (s: number) => string }) {
	return (
		<defs>
			{Array.from({ length: count }, (_, s) => {
				const color = seriesColor(s)
				if (s === 1)
					return (
						<pattern key={s} id={id(s)} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
							<rect width={6} height={6} fill="#fff" />
							<line x1={0} y1={0} x2={0} y2={6} stroke={color} strokeWidth={3} />
						</pattern>
					)
				if (s === 2)
					return (
						<pattern key={s} id={id(s)} patternUnits="userSpaceOnUse" width={5} height={5}>
							<rect width={5} height={5} fill="#fff" />
							<circle cx={2.5} cy={2.5} r={1.5} fill={color} />
						</pattern>
					)
				return null
			})}
		</defs>
	)
}

function seriesColor(s: number) {
	return SERIES_COLORS[s % SERIES_COLORS.length] ?? TEXT
}

function seriesFill(s: number, id: (s: number) => string) {
	if (s === 0) return seriesColor(0)
	if (s === 1 || s === 2) return `url(#${id(s)})`
	return '#fff'
}

/** Said on the chart when every value is 0, so a flat baseline isn't mistaken for a broken chart. */
function AllZero({ show, plotHeight }: { show: boolean; plotHeight: number }) {
	if (!show) return null
	return (
		<text x={WIDTH / 2} y={PAD_TOP + plotHeight / 2} textAnchor="middle" fill={TEXT}>
			All values are 0
		</text>
	)
}

function ChartFigure({
	ids,
	title,
	desc,
	height,
	empty,
	before,
	after,
	table,
	children,
}: {
	ids: ReturnType<typeof useChartIds>
	title: string
	desc: string
	height: number
	empty: boolean
	before?: ReactNode
	after?: ReactNode
	table?: ReactNode
	children?: ReactNode
}) {
	return (
		<figure className="m-0 flex flex-col gap-2 break-inside-avoid">
			<figcaption className="font-semibold text-gray-900">{title}</figcaption>
			{before}
			<svg
				role="img"
				aria-labelledby={`${ids.title} ${ids.desc}`}
				viewBox={`0 0 ${WIDTH} ${height}`}
				width="100%"
				height={height}
				fontSize={FONT_SIZE}
				className="block max-w-full"
			>
				<title id={ids.title}>{title}</title>
				<desc id={ids.desc}>{desc}</desc>
				{empty ? (
					<text x={WIDTH / 2} y={height / 2} dy="0.32em" textAnchor="middle" fill={TEXT} fontSize={14}>
						{NO_DATA_TEXT}
					</text>
				) : (
					children
				)}
			</svg>
			{after}
			{empty ? null : table}
		</figure>
	)
}

function DataTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: string[][] }) {
	return (
		<details className="text-sm text-gray-800">
			<summary className="cursor-pointer text-blue-700 underline">Show data table</summary>
			<ScrollTable
				caption={caption}
				className="mt-2 max-h-80 overflow-y-auto rounded border border-gray-200"
				tableClassName="w-full border-collapse tabular-nums [&_td]:px-3 [&_td]:py-1 [&_td]:text-right [&_th]:px-3 [&_th]:py-1 [&_th]:text-left [&_tbody_th]:font-normal [&_tbody_tr]:border-t [&_tbody_tr]:border-gray-100"
			>
				<thead className="bg-gray-50">
					<tr>
						{headers.map((header, i) => (
							<th key={i} scope="col">
								{header}
							</th>
						))}
					</tr>
				</thead>
				<tbody>
					{rows.map(([label, ...cells], i) => (
						<tr key={i}>
							<th scope="row">{label}</th>
							{cells.map((cell, j) => (
								<td key={j}>{cell}</td>
							))}
						</tr>
					))}
				</tbody>
			</ScrollTable>
		</details>
	)
}

function DownsampleNote({ size, what }: { size: number; what: string }) {
	if (size <= 1) return null
	return (
		<p className="text-xs text-gray-600">
			Each {what} shows the highest value of {fmt(size)} consecutive rows; the data table lists every row.
		</p>
	)
}

function sentence(text: string) {
	const trimmed = text.trim()
	return trimmed === '' || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

function summarise(description: string, rows: Row[], names: string[]) {
	if (rows.length === 0) return `${sentence(description)} ${NO_DATA_TEXT}.`.trim()
	const first = rows[0]?.label ?? ''
	const last = rows[rows.length - 1]?.label ?? ''
	const parts = [
		sentence(description),
		`${fmt(rows.length)} ${rows.length === 1 ? 'row' : 'rows'}${rows.length > 1 ? `, from ${first} to ${last}` : `: ${first}`}.`,
	]
	names.forEach((name, s) => {
		let best = rows[0]
		for (const row of rows) if ((row.values[s] ?? 0) > (best?.values[s] ?? 0)) best = row
		const peak = best?.values[s] ?? 0
		parts.push(peak > 0 ? `Highest ${name}: ${fmt(peak)} (${best?.label ?? ''}).` : `${name}: all values are 0.`)
	})
	return parts.filter(Boolean).join(' ')
}

/** A time series (users per day, scans per day…) as a line over a shaded area, with round gridlines. */
export function LineChart({ title, description, points, valueLabel, labelHeader }: LineChartProps) {
	const ids = useChartIds()
	const rows: Row[] = (points ?? []).map((p) => ({ label: asLabel(p?.label), values: [clean(p?.value)] }))
	const empty = rows.length === 0
	const { size, groups } = downsample(rows, MAX_LINE_POINTS)
	const values = groups.map((g) => g.values[0] ?? 0)
	const integers = rows.every((row) => Number.isInteger(row.values[0]))
	const { top, ticks } = niceScale(Math.max(0, ...values), integers)
	const left = leftMargin(ticks)
	const plotWidth = WIDTH - left - PAD_RIGHT
	const plotHeight = HEIGHT - PAD_TOP - PAD_BOTTOM
	const baseline = PAD_TOP + plotHeight
	const n = groups.length
	const x = (i: number) => (n <= 1 ? left + plotWidth / 2 : left + (i / (n - 1)) * plotWidth)
	const y = (v: number) => baseline - (v / top) * plotHeight
	const line = values.map((v, i) => `${r1(x(i))},${r1(y(v))}`).join(' ')
	const area = n > 1 ? `${r1(x(0))},${r1(baseline)} ${line} ${r1(x(n - 1))},${r1(baseline)}` : ''
	const longest = Math.min(X_LABEL_CHARS, Math.max(1, ...groups.map((g) => g.first.length)))
	const xLabels = spreadIndices(n, plotWidth, longest).map((i) => ({ x: x(i), text: short(groups[i]?.first ?? '', X_LABEL_CHARS) }))

	return (
		<ChartFigure
			ids={ids}
			title={title}
			desc={summarise(description, rows, [valueLabel])}
			height={HEIGHT}
			empty={empty}
			after={<DownsampleNote size={size} what="point of the line" />}
			table={
				<DataTable caption={title} headers={[labelHeader, valueLabel]} rows={rows.map((row) => [row.label, fmt(row.values[0] ?? 0)])} />
			}
		>
			<YAxis ticks={ticks} top={top} left={left} plotHeight={plotHeight} />
			{area ? <polygon points={area} fill={AREA} /> : null}
			{n > 1 ? <polyline points={line} fill="none" stroke={SERIES_COLORS[0]} strokeWidth={2} strokeLinejoin="round" /> : null}
			{n <= MARKER_LIMIT
				? groups.map((g, i) => (
						<circle key={i} cx={r1(x(i))} cy={r1(y(values[i] ?? 0))} r={3.5} fill={SERIES_COLORS[0]} stroke="#fff" strokeWidth={1}>
							<title>{`${g.first}: ${fmt(values[i] ?? 0)} ${valueLabel}`}</title>
						</circle>
					))
				: null}
			<XLabels labels={xLabels} />
			<AllZero show={!empty && Math.max(0, ...values) === 0} plotHeight={plotHeight} />
		</ChartFigure>
	)
}

/** Categories or hours as bars; with two or more series the bars are grouped and told apart by fill pattern too. */
export function BarChart({ title, description, labelHeader, bars, series }: BarChartProps) {
	const ids = useChartIds()
	const names = series && series.length > 0 ? series.map(asLabel) : ['Value']
	const k = names.length
	const rows: Row[] = (bars ?? []).map((bar) => ({
		label: asLabel(bar?.label),
		values: names.map((_, s) => clean(Array.isArray(bar?.values) ? bar.values[s] : undefined)),
	}))
	const empty = rows.length === 0
	const { size, groups } = downsample(rows, MAX_BAR_GROUPS)
	const integers = rows.every((row) => row.values.every((v) => Number.isInteger(v)))
	const { top, ticks } = niceScale(Math.max(0, ...groups.flatMap((g) => g.values)), integers)
	const left = leftMargin(ticks)
	const plotWidth = WIDTH - left - PAD_RIGHT
	const plotHeight = HEIGHT - PAD_TOP - PAD_BOTTOM
	const baseline = PAD_TOP + plotHeight
	const n = Math.max(1, groups.length)
	const groupWidth = plotWidth / n
	const barWidth = Math.min(40, (groupWidth * (groups.length > 1 ? 0.8 : 0.5)) / k)
	const offset = (groupWidth - barWidth * k) / 2
	const longest = Math.min(X_LABEL_CHARS, Math.max(1, ...groups.map((g) => g.first.length)))
	const xLabels = strideIndices(groups.length, plotWidth, longest).map((i) => ({
		x: left + (i + 0.5) * groupWidth,
		text: short(groups[i]?.first ?? '', X_LABEL_CHARS),
	}))
	const tooltips = groups.length <= BAR_TOOLTIP_LIMIT

	const legend =
		!empty && series && series.length > 0 ? (
			<ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-800" aria-label="Legend">
				{names.map((name, s) => (
					<li key={s} className="flex items-center gap-1.5">
						<svg width={14} height={14} viewBox="0 0 14 14" aria-hidden="true">
							<rect x={0.5} y={0.5} width={13} height={13} fill={seriesFill(s, ids.pattern)} stroke={seriesColor(s)} strokeWidth={1} />
						</svg>
						{name}
						{k > 1 ? <span className="text-gray-600">({legendStyle(s)})</span> : null}
					</li>
				))}
			</ul>
		) : null

	return (
		<ChartFigure
			ids={ids}
			title={title}
			desc={summarise(description, rows, names)}
			height={HEIGHT}
			empty={empty}
			before={legend}
			after={<DownsampleNote size={size} what="bar" />}
			table={
				<DataTable
					caption={title}
					headers={[labelHeader, ...names]}
					rows={rows.map((row) => [row.label, ...row.values.map((v) => fmt(v))])}
				/>
			}
		>
			<SeriesPatterns count={k} id={ids.pattern} />
			<YAxis ticks={ticks} top={top} left={left} plotHeight={plotHeight} />
			{names.map((name, s) => (
				<g key={s} fill={seriesFill(s, ids.pattern)} stroke={s === 0 ? undefined : seriesColor(s)} strokeWidth={s === 0 ? undefined : 1}>
					{groups.map((g, i) => {
						const v = g.values[s] ?? 0
						if (v <= 0) return null
						const h = Math.max(1, (v / top) * plotHeight)
						return (
							<rect
								key={i}
								x={r1(left + i * groupWidth + offset + s * barWidth)}
								y={r1(baseline - h)}
								width={r1(Math.max(0.5, barWidth))}
								height={r1(h)}
							>
								{tooltips ? <title>{`${groupLabel(g)}, ${name}: ${fmt(v)}`}</title> : null}
							</rect>
						)
					})}
				</g>
			))}
			<XLabels labels={xLabels} />
			<AllZero show={!empty && !groups.some((g) => g.values.some((v) => v > 0))} plotHeight={plotHeight} />
		</ChartFigure>
	)
}

function legendStyle(s: number) {
	return s === 0 ? 'solid' : s === 1 ? 'striped' : s === 2 ? 'dotted' : 'outlined'
}

const SHARE_ROW = 28
const SHARE_BAR = 16
const SHARE_PAD = 8

/** A split (devices, browsers, new vs returning) as horizontal bars against a 100% track, each with count and share. */
export function ShareChart({ title, description, labelHeader, items, valueLabel = 'Count' }: ShareChartProps) {
	const ids = useChartIds()
	const rows = (items ?? []).map((item) => ({ label: asLabel(item?.label), value: clean(item?.value) }))
	const empty = rows.length === 0
	const total = rows.reduce((sum, row) => sum + row.value, 0)
	let drawn = rows
	if (rows.length > MAX_SHARE_ROWS) {
		const sorted = [...rows].sort((a, b) => b.value - a.value)
		const rest = sorted.slice(MAX_SHARE_ROWS - 1)
		drawn = [
			...sorted.slice(0, MAX_SHARE_ROWS - 1),
			{ label: `Other (${fmt(rest.length)})`, value: rest.reduce((sum, row) => sum + row.value, 0) },
		]
	}
	const height = empty ? 80 : SHARE_PAD * 2 + drawn.length * SHARE_ROW
	const texts = drawn.map((row) => `${fmt(row.value)} (${percent(row.value, total)})`)
	const labelWidth = Math.min(190, Math.max(60, Math.max(...drawn.map((row) => Math.min(26, row.label.length))) * CHAR_W + 12))
	const valueWidth = Math.max(...texts.map((t) => t.length), 4) * CHAR_W + 12
	const trackWidth = Math.max(40, WIDTH - labelWidth - valueWidth)
	let largest = rows[0]
	for (const row of rows) if (row.value > (largest?.value ?? 0)) largest = row
	const desc = empty
		? `${sentence(description)} ${NO_DATA_TEXT}.`.trim()
		: [
				sentence(description),
				`Total: ${fmt(total)}.`,
				largest && largest.value > 0
					? `Largest: ${largest.label}, ${fmt(largest.value)} (${percent(largest.value, total)}).`
					: 'All values are 0.',
			]
				.filter(Boolean)
				.join(' ')

	return (
		<ChartFigure
			ids={ids}
			title={title}
			desc={desc}
			height={height}
			empty={empty}
			after={
				rows.length > MAX_SHARE_ROWS ? (
					<p className="text-xs text-gray-600">
						The {fmt(MAX_SHARE_ROWS - 1)} largest are drawn and the rest added up as Other; the data table lists every row.
					</p>
				) : null
			}
			table={
				<DataTable
					caption={title}
					headers={[labelHeader, valueLabel, 'Share']}
					rows={rows.map((row) => [row.label, fmt(row.value), percent(row.value, total)])}
				/>
			}
		>
			{drawn.map((row, i) => {
				const y = SHARE_PAD + i * SHARE_ROW + (SHARE_ROW - SHARE_BAR) / 2
				const w = total > 0 ? (row.value / total) * trackWidth : 0
				return (
					<g key={i}>
						<text x={r1(labelWidth - 8)} y={r1(y + SHARE_BAR / 2)} dy="0.32em" textAnchor="end" fill={TEXT}>
							{short(row.label, 26)}
						</text>
						<rect x={r1(labelWidth)} y={r1(y)} width={r1(trackWidth)} height={SHARE_BAR} fill={TRACK} />
						{w > 0 ? <rect x={r1(labelWidth)} y={r1(y)} width={r1(Math.max(1, w))} height={SHARE_BAR} fill={SERIES_COLORS[0]} /> : null}
						<text x={r1(labelWidth + trackWidth + 8)} y={r1(y + SHARE_BAR / 2)} dy="0.32em" fill={TEXT}>
							{texts[i]}
						</text>
					</g>
				)
			})}
		</ChartFigure>
	)
}
