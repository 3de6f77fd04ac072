import { parseWithZod } from '@conform-to/zod/v4'
import { readPageForm } from '#app/utils/request.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { data, redirect } from 'react-router'
import { agreeToMissingConsents, currentConsentTexts, getConsentStatus } from '#app/domain/consent/consent.server.ts'
import { clientInfo, dismissNoticeCookie } from '#app/middleware/consent.server.ts'
import { CONSENT_INTENTS, CONSENT_REQUIRED, CONSENT_TYPES } from '#app/domain/consent/schemas.ts'
import { Logo, SiteFooter } from '#app/ui/brand.tsx'
import { StatusButton } from '#app/ui/forms.tsx'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/consent'
import { ConsentForm } from './consent-form.tsx'
import { ConsentPageSchema, UNKNOWN_ACTION } from './consent.server.ts'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/dashboard')
	const [status, texts] = await Promise.all([getConsentStatus(user.id), currentConsentTexts()])
	if (!status.missing.length) throw redirect(redirectTo)
	return { forms: texts.filter((t) => status.missing.includes(t.consentType)), redirectTo }
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = await requireUser({ request, context })
	const submission = parseWithZod(await readPageForm(request), { schema: ConsentPageSchema })
	if (submission.status !== 'success') {
		// Only the intent can be wrong (missing or unknown): every other field falls back to nothing ticked.
		return data({ error: submission.error?.intent?.[0] ?? UNKNOWN_ACTION, ticked: [], result: submission.reply() }, { status: 400 })
	}
	const action = submission.value
	const redirectTo = safeRedirect(action.redirectTo, '/dashboard')
	switch (action.intent) {
		case CONSENT_INTENTS.dismissNotice: {
			const headers = { 'set-cookie': await dismissNoticeCookie(user.id) }
			// With JavaScript the notice closes in place; without it the page the person was on comes back.
			if (new URL(request.url).pathname.endsWith('.data')) return data({ dismissed: true }, { headers })
			return redirect(redirectTo, { headers })
		}
		case CONSENT_INTENTS.agree: {
			const shown = { hipaa: action.hipaa, terms: action.terms, emergency_disclaimer: action.emergency_disclaimer }
			try {
				await agreeToMissingConsents(user.id, shown, clientInfo(request, context))
			} catch (error) {
				const ticked = CONSENT_TYPES.filter((type) => shown[type] !== undefined)
				return replyError({ request, context }, submission, error, {
					toast: 'Consent Required',
					extra: { error: CONSENT_REQUIRED, ticked },
				})
			}
			return redirectWithToast(redirectTo, {
				type: 'success',
				title: 'Consent Recorded',
				description: 'Thank you. Your agreement to each form has been recorded.',
			})
		}
		default: {
			const unknown: never = action
			return unknown
		}
	}
}

export default function Consent({ loaderData, actionData }: Route.ComponentProps) {
	const error = actionData && 'error' in actionData ? actionData : null
	return (
		<div className="min-h-screen pb-24">
			<header className="border-b border-gray-300 bg-white">
				<div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-3 px-4 py-3">
					<p className="flex items-center gap-2 text-xl font-extrabold text-gray-900">
						<Logo className="size-9" /> Hit Me Helpers
					</p>
					<SignOutForm>
						<StatusButton type="submit" variant="secondary">
							Sign Out
						</StatusButton>
					</SignOutForm>
				</div>
			</header>
			<main id="main" className="mx-auto mt-6 max-w-3xl px-4">
				<h1 className="text-2xl font-bold text-gray-900">Required Consent Forms</h1>
				<p className="mt-1 mb-6 text-gray-700">
					Please read each form and tick its box to continue. We record when you agree and which version of each form you read.
				</p>
				<ConsentForm
					key={error ? 'refused' : 'fresh'}
					forms={loaderData.forms}
					redirectTo={loaderData.redirectTo}
					error={error?.error}
					ticked={error?.ticked}
				/>
			</main>
			<SiteFooter />
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Consent forms')
