import { giftsInYear, verifyStatementLink, yearStatementPdf } from '#app/domain/giving/statements.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { refusedDownload } from '#app/utils/download.server.ts'
import { env } from '#app/utils/env.server.ts'
import { messagePage } from '#app/utils/message-page.server.ts'
import type { Route } from './+types/statement'

const YEAR = /^(19|20)\d{2}$/
/** Where a donor with an account finds every statement (signing in first). */
const YOUR_GIVING = { href: '/dashboard/giving', label: 'Go to Your Giving' }

/**
 * A year-end statement as a PDF: /dashboard/giving/statement/{year} for the signed-in donor, or /giving/statement with
 * the signed link from a receipt (email, year, sig) for a guest.
 */
export async function loader(args: Route.LoaderArgs) {
	try {
		return await statement(args)
	} catch (error) {
		if (error instanceof DomainError) throw refusedDownload(error, YOUR_GIVING)
		throw error
	}
}

async function statement({ request, context, params }: Route.LoaderArgs) {
	const url = new URL(request.url)
	if (params.year !== undefined) {
		const user = await requireUser({ request, context })
		if (!YEAR.test(params.year)) throw refusedDownload({ status: 404, message: 'There is no statement for this year.' }, YOUR_GIVING)
		const year = Number(params.year)
		const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || null
		return pdf(await yearStatementPdf({ name, email: user.email }, year, await giftsInYear({ userId: user.id }, year)), year)
	}
	const email = (url.searchParams.get('email') ?? '').slice(0, 254)
	const year = url.searchParams.get('year') ?? ''
	const sig = (url.searchParams.get('sig') ?? '').slice(0, 100)
	if (!YEAR.test(year) || !email || !verifyStatementLink(email, Number(year), sig))
		throw messagePage({
			status: 404,
			title: 'This statement link is not valid',
			paragraphs: [
				'The link may have been cut short or changed on the way.',
				`Open it again from your receipt e-mail, or write to us at ${env.SUPPORT_EMAIL}. With an account, every year's statement is on Your Giving.`,
			],
			link: YOUR_GIVING,
		})
	return pdf(await yearStatementPdf({ name: null, email }, Number(year), await giftsInYear({ email }, Number(year))), Number(year))
}

function pdf(bytes: Uint8Array, year: number) {
	return new Response(bytes as Uint8Array<ArrayBuffer>, {
		headers: {
			'content-type': 'application/pdf',
			'content-disposition': `attachment; filename="giving-statement-${year}.pdf"`,
			'cache-control': 'private, no-store',
		},
	})
}
