import { Link, useLocation } from 'react-router'
import { Logo } from '#app/ui/brand.tsx'
import { CartButton } from '../../features/cart/cart-button.tsx'
import { buttonClass, StatusButton } from '#app/ui/forms.tsx'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { DashboardGiving } from './support-dialog.tsx'
import { LinkList } from '#app/ui/link-list.tsx'

const SUPPORT_DIALOG = 'support'
// The tier cards load with the dialog, not with every dashboard page.
const SupportDialog = lazyComponent('support-dialog', () => import('./support-dialog.tsx').then((module) => module.SupportDialog))

const navLink = buttonClass('ghost', 'min-h-10 px-3 py-1.5 text-sm')

/** Who is signed in, as the header greets them; the owner also sees the Admin link. */
export type HeaderUser = { firstName: string | null; email: string; isOwner: boolean }

export function DashboardHeader({ user, giving }: { user: HeaderUser; giving: DashboardGiving }) {
	const location = useLocation()
	const params = new URLSearchParams(location.search)
	const dialogOpen = params.get('dialog') === SUPPORT_DIALOG
	params.delete('dialog')
	const closeHref = `${location.pathname}${params.size ? `?${params}` : ''}`
	params.set('dialog', SUPPORT_DIALOG)
	const openHref = `${location.pathname}?${params}`
	return (
		<header className="border-b border-gray-300 bg-white">
			{/* The greeting keeps at least 8rem: on a narrow phone the buttons move below it rather than squeeze the name out. */}
			<div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-3">
				<div className="flex min-w-0 flex-[1_1_8rem] items-center gap-3">
					<Logo className="size-9 shrink-0" />
					<p className="min-w-0 leading-tight">
						<span className="block text-sm text-gray-700">Welcome, </span>
						<span className="block truncate text-lg font-semibold">{user.firstName || user.email}</span>
					</p>
				</div>
				{/* Below a laptop's width the links fold into a menu (a plain <details>, so it opens without JavaScript): one row, not three. */}
				<div className="ml-auto flex shrink-0 items-center gap-1 lg:hidden">
					<CartButton />
					<details className="group relative">
						<summary
							className={buttonClass(
								'secondary',
								'min-h-10 cursor-pointer list-none px-3 py-1.5 text-sm [&::-webkit-details-marker]:hidden',
							)}
						>
							Menu{' '}
							<span aria-hidden="true" className="ml-1 group-open:rotate-180">
								▾
							</span>
						</summary>
						<nav
							aria-label="Account"
							className="absolute right-0 z-30 mt-2 flex w-56 flex-col items-stretch gap-1 rounded-lg border border-gray-300 bg-white p-2 shadow-lg"
						>
							<AccountLinks user={user} supportHref={openHref} />
						</nav>
					</details>
				</div>
				<nav aria-label="Account" className="hidden shrink-0 items-center gap-1 lg:flex">
					<AccountLinks user={user} supportHref={openHref} cart={<CartButton />} />
				</nav>
			</div>
			{dialogOpen ? <SupportDialog closeHref={closeHref} giving={giving} /> : null}
		</header>
	)
}

function AccountLinks({ user, supportHref, cart }: { user: HeaderUser; supportHref: string; cart?: React.ReactNode }) {
	return (
		<>
			<Link to="/shop" className={navLink}>
				Products
			</Link>
			<Link
				to={supportHref}
				preventScrollReset
				className={buttonClass('secondary', 'min-h-10 border-brand-700 px-3 py-1.5 text-sm text-brand-800')}
			>
				<span aria-hidden="true">♥</span> Support Us
			</Link>
			<LinkList
				links={[
					{ to: '/donate', label: 'Donations', className: navLink },
					{ to: '/team', label: 'Our Team', className: navLink },
				]}
			/>
			{cart}
			{user.isOwner ? (
				<Link to="/admin" className={buttonClass('blue', 'min-h-10 px-3 py-1.5 text-sm')}>
					Admin
				</Link>
			) : null}
			{/* Spec 002 names this 'Logout' here and 'Sign Out' on the Profile tab: one name everywhere, beside 'Sign In'. */}
			<SignOutForm>
				<StatusButton type="submit" variant="secondary" className="min-h-10 w-full px-3 py-1.5 text-sm">
					Sign Out
				</StatusButton>
			</SignOutForm>
		</>
	)
}
