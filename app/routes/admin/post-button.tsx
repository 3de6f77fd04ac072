import type { ReactNode } from 'react'
import { Form } from 'react-router'

/** A form that is one button posting a few fixed values (an intent, an id, where to come back to). */
export function PostButton({
	fields,
	action,
	className,
	buttonClassName,
	buttonLabel,
	children,
}: {
	fields: Record<string, string>
	action?: string
	className?: string
	buttonClassName: string
	/** The button's accessible name, where its text alone would not say which row it acts on. */
	buttonLabel?: string
	children: ReactNode
}) {
	return (
		<Form method="post" action={action} className={className}>
			{Object.entries(fields).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			<button type="submit" className={buttonClassName} aria-label={buttonLabel}>
				{children}
			</button>
		</Form>
	)
}
