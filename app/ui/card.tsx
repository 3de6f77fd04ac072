import type { ReactNode } from 'react'
import { cx } from './cx.ts'

/** The white panel most sections sit on; the padding and layout are the caller's. */
export function cardClass(extra?: string) {
	return cx('rounded-xl border border-gray-300 bg-white shadow-sm', extra)
}

/** Points ticked off in green: what a page promises or what happened. */
export function CheckList({
	items,
	className,
	itemClassName = 'flex gap-2',
	label,
}: {
	items: readonly ReactNode[]
	className?: string
	itemClassName?: string
	label?: string
}) {
	return (
		<ul className={className} aria-label={label}>
			{items.map((item, i) => (
				<li key={i} className={itemClassName}>
					<span aria-hidden="true" className="text-green-700">
						✓
					</span>
					{item}
				</li>
			))}
		</ul>
	)
}
