import { Form } from 'react-router'
import type { PublicUser } from '#app/domain/accounts/accounts.server.ts'
import { Logo } from './brand.tsx'
import { StatusButton } from './forms.tsx'

export function DashboardHeader({ user }: { user: PublicUser }) {
	return (
		<header className="border-b border-gray-300 bg-white">
			<div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
				<div className="flex items-center gap-3">
					<Logo className="size-9" />
					<p className="text-lg font-semibold">Welcome, {user.firstName || user.email}</p>
				</div>
				<Form method="post" action="/api/auth/logout">
					<StatusButton type="submit" variant="secondary">
						Logout
					</StatusButton>
				</Form>
			</div>
		</header>
	)
}
