import { DomainError } from '#app/utils/errors.ts'
import { data } from 'react-router'
import { codeImage } from '#app/domain/qr/manage.server.ts'
import { IdSchema } from '#app/domain/profiles/schemas.ts'
import { requireUserId } from '#app/middleware/permissions.server.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import type { DashboardHandle } from '#app/ui/dashboard-chrome.ts'
import type { Route } from './+types/print'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const userId = await requireUserId({ request, context })
	const id = IdSchema.safeParse(params.id)
	if (!id.success) throw data('Not found', { status: 404 })
	try {
		const { code, body } = await codeImage(userId, id.data, 'svg', undefined, 600)
		return { svg: body as string, pin: code.pin, name: code.profileName }
	} catch (error) {
		if (error instanceof DomainError) throw data('Not found', { status: 404 })
		throw error
	}
}

export default function PrintQrCode({ loaderData }: Route.ComponentProps) {
	const hydrated = useHydrated()
	return (
		<main id="main" className="mx-auto flex max-w-xl flex-col items-center gap-4 p-6 text-center print:p-0">
			<h1 className="text-2xl font-bold">Emergency medical information</h1>
			<div
				className="w-full max-w-md [&>svg]:h-auto [&>svg]:w-full"
				role="img"
				aria-label="QR code"
				dangerouslySetInnerHTML={{ __html: loaderData.svg }}
			/>
			<p className="text-lg">Scan in an emergency{loaderData.name ? ` for ${loaderData.name}` : ''}.</p>
			{loaderData.pin ? <p className="font-mono text-lg tracking-widest">PIN {loaderData.pin}</p> : null}
			<div className="print:hidden">
				{hydrated ? (
					<button type="button" className={buttonClass('primary')} onClick={() => window.print()}>
						Print
					</button>
				) : (
					<p className="text-gray-700">Use your browser’s Print command (Ctrl+P or ⌘P).</p>
				)}
			</div>
		</main>
	)
}

export const handle: DashboardHandle = { chrome: 'none' }

export const meta: Route.MetaFunction = () => pageMeta('Print QR code')
