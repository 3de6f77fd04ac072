import { useId, type ReactNode } from 'react'
import { cx } from './cx.ts'

/**
 * A table that may be wider than a phone's screen, scrolling sideways inside its own region. The region is a tab stop
 * named by the table's caption, so a keyboard reaches and scrolls it (arrow keys) and a screen reader names it.
 */
export function ScrollTable({
	caption,
	captionClassName = 'sr-only',
	className,
	tableClassName,
	children,
}: {
	caption: string
	captionClassName?: string
	/** The region's own classes: how it scrolls (sideways unless given) and looks. */
	className?: string
	tableClassName?: string
	/** The table's head and body. */
	children: ReactNode
}) {
	const captionId = useId()
	return (
		<div role="region" tabIndex={0} aria-labelledby={captionId} className={cx('overflow-x-auto', className)}>
			<table className={tableClassName}>
				<caption id={captionId} className={captionClassName}>
					{caption}
				</caption>
				{children}
			</table>
		</div>
	)
}
