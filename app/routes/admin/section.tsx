import type { ReactNode } from 'react'

/** A part of an owner page under its own heading, which names the section for screen readers. */
export function Section({
	id,
	title,
	className,
	titleClassName = 'text-xl font-bold',
	children,
}: {
	/** The heading's id. */
	id: string
	title: ReactNode
	className: string
	titleClassName?: string
	children: ReactNode
}) {
	return (
		<section aria-labelledby={id} className={className}>
			<h3 id={id} className={titleClassName}>
				{title}
			</h3>
			{children}
		</section>
	)
}
