import type { ReactNode } from 'react'
import { statusBadge, type BadgeTone } from '#app/domain/admin/order-status.ts'
import { cardClass } from '#app/ui/card.tsx'
import { cx } from '#app/ui/cx.ts'

const TONES: Record<BadgeTone, string> = {
	neutral: 'border-gray-400 bg-gray-100 text-gray-900',
	info: 'border-blue-400 bg-blue-50 text-blue-900',
	warning: 'border-amber-400 bg-amber-50 text-amber-900',
	success: 'border-green-500 bg-green-50 text-green-900',
	danger: 'border-red-400 bg-red-50 text-red-900',
}

export function StatusBadge({ status }: { status: string }) {
	const badge = statusBadge(status)
	return (
		<span
			title={badge.description}
			className={cx('inline-block rounded-full border px-2.5 py-0.5 text-sm font-semibold', TONES[badge.tone])}
		>
			{badge.label}
		</span>
	)
}

/** A postal address, one line under another. */
export function AddressLines({ lines, className }: { lines: readonly string[]; className?: string }) {
	return (
		<address className={cx(className, 'not-italic')}>
			{lines.map((line, i) => (
				<span key={i} className="block">
					{line}
				</span>
			))}
		</address>
	)
}

export const money = (dollars: number, currency = 'usd') =>
	new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(dollars)

/** A row of figures, each a card, with an optional line under the figure (a rate, a split). */
export function StatCards({
	stats,
	columns = 'sm:grid-cols-4',
}: {
	stats: ReadonlyArray<readonly [label: string, value: ReactNode, detail?: ReactNode]>
	columns?: string
}) {
	return (
		<dl className={cx('grid gap-3', columns)}>
			{stats.map(([label, value, detail]) => (
				<div key={label} className={cardClass('p-4')}>
					<dt className="text-sm font-semibold text-gray-700">{label}</dt>
					<dd className="text-2xl font-bold text-gray-900">{typeof value === 'number' ? value.toLocaleString('en-US') : value}</dd>
					{detail ? <dd className="text-sm text-gray-700">{detail}</dd> : null}
				</div>
			))}
		</dl>
	)
}
