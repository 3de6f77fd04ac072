import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { useScreen } from './screen-context.tsx'
import { cardClass } from '#app/ui/card.tsx'

export function SectionCard({
	id,
	title,
	addLabel,
	addDialog,
	children,
}: {
	id: string
	title: string
	addLabel?: string
	addDialog?: string
	children: React.ReactNode
}) {
	const { profile, href } = useScreen()
	return (
		<section id={id} aria-labelledby={`${id}-title`} className={cardClass('scroll-mt-4 p-5')}>
			<div className="mb-3 flex flex-wrap items-center justify-between gap-3">
				<h2 id={`${id}-title`} className="text-xl font-bold text-gray-900">
					{title}
				</h2>
				{addLabel && addDialog && profile ? (
					<Link to={href({ dialog: addDialog })} preventScrollReset className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}>
						{addLabel}
					</Link>
				) : null}
			</div>
			{profile || id === 'personal' ? children : <p className="text-gray-700">Please save your medical profile first.</p>}
		</section>
	)
}

export function EmptyState({ children }: { children: React.ReactNode }) {
	return <p className="text-gray-700">{children}</p>
}
