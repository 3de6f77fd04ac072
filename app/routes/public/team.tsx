import { and, asc, eq } from 'drizzle-orm'
import { Link } from 'react-router'
import { db } from '#db/client.ts'
import { products } from '#db/schema.ts'
import { board, leadership, members, mission, values, type TeamMember } from '#app/content/team.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { PublicShell } from '#app/ui/public-shell.tsx'
import { env } from '#app/utils/env.server.ts'
import type { Route } from './+types/team'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'

const PRODUCTS_DIALOG = 'products'

export async function loader({ request }: Route.LoaderArgs) {
	const dialogOpen = new URL(request.url).searchParams.get('dialog') === PRODUCTS_DIALOG
	const shopProducts = dialogOpen
		? await db
				.select({ id: products.id, name: products.name, description: products.description })
				.from(products)
				.where(and(eq(products.inShop, true), eq(products.active, true)))
				.orderBy(asc(products.sortOrder))
		: []
	return { supportEmail: env.SUPPORT_EMAIL, dialogOpen, shopProducts }
}

const groups = [
	{ id: 'leadership', title: 'Leadership', people: leadership },
	{ id: 'board', title: 'Board of Directors', people: board },
	{ id: 'members', title: 'Members', people: members },
]

export default function Team({ loaderData }: Route.ComponentProps) {
	const { supportEmail, dialogOpen, shopProducts } = loaderData
	return (
		<PublicShell title="Our Team">
			<div className="space-y-8">
				<section aria-labelledby="mission-title" className={cardClass('p-6')}>
					<h2 id="mission-title" className="text-xl font-bold">
						Our Mission
					</h2>
					<p className="mt-2 text-lg text-gray-800">{mission}</p>
				</section>
				<section aria-labelledby="values-title">
					<h2 id="values-title" className="text-xl font-bold">
						Our Values
					</h2>
					<ul className="mt-3 grid gap-4 sm:grid-cols-3">
						{values.map((value) => (
							<li key={value.title} className={cardClass('p-5')}>
								<h3 className="text-lg font-bold text-brand-800">{value.title}</h3>
								<p className="mt-1 text-gray-800">{value.text}</p>
							</li>
						))}
					</ul>
				</section>
				{groups.map((group) => (
					<TeamGroup key={group.id} id={group.id} title={group.title} people={group.people} />
				))}
				<section aria-labelledby="contact-title" className={cardClass('p-6')}>
					<h2 id="contact-title" className="text-xl font-bold">
						Contact the Foundation
					</h2>
					<p className="mt-2 text-gray-800">
						Questions, press, partnerships or help with your account:{' '}
						<a href={`mailto:${supportEmail}`} className="font-semibold text-blue-800 underline">
							{supportEmail}
						</a>
					</p>
				</section>
				<div className="flex flex-wrap gap-3">
					<Link to={`?dialog=${PRODUCTS_DIALOG}`} preventScrollReset className={buttonClass('primary')}>
						Order Products
					</Link>
					<Link to="/donate" className={buttonClass('secondary')}>
						Support Our Mission
					</Link>
				</div>
			</div>
			{dialogOpen ? (
				<Modal title="Order Medical Alert Products" closeHref="/team" start="title">
					<p className="text-gray-800">Stickers and cards that carry your medical QR code. Choose one in the shop.</p>
					<ul className="mt-4 space-y-2">
						{shopProducts.map((product) => (
							<li key={product.id}>
								<Link to="/shop" className="block rounded-lg border border-gray-300 p-3 hover:bg-gray-50">
									<span className="block font-semibold text-gray-900">{product.name}</span>
									<span className="block text-sm text-gray-700">{product.description}</span>
								</Link>
							</li>
						))}
					</ul>
					{shopProducts.length === 0 ? <p className="mt-4 text-gray-700">No products are available right now.</p> : null}
				</Modal>
			) : null}
		</PublicShell>
	)
}

function TeamGroup({ id, title, people }: { id: string; title: string; people: TeamMember[] }) {
	if (!people.length) return null
	return (
		<section aria-labelledby={`${id}-title`}>
			<h2 id={`${id}-title`} className="text-xl font-bold">
				{title}
			</h2>
			<ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
				{people.map((person) => (
					<li key={person.name} className={cardClass('p-5')}>
						<p className="text-lg font-bold text-gray-900">{person.name}</p>
						<p className="font-semibold text-gray-700">{person.role}</p>
						{person.bio ? <p className="mt-2 text-gray-800">{person.bio}</p> : null}
					</li>
				))}
			</ul>
		</section>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Our Team', { description: 'The Hit Me Helpers Foundation: our mission, our values and how to reach us.' })
