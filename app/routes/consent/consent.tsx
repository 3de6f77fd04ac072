import { readPageForm } from '#app/utils/request.server.ts'
import { data, redirect } from 'react-router'
import { agreeToMissingConsents, currentConsentTexts, getConsentStatus } from '#app/domain/consent/consent.server.ts'
import { clientInfo, dismissNoticeCookie } from '#app/middleware/consent.server.ts'
import { CONSENT_INTENTS, CONSENT_REQUIRED, CONSENT_TYPES, ConsentFormSchema } from '#app/domain/consent/schemas.ts'
import { Logo, SiteFooter } from '#app/ui/brand.tsx'
import { StatusButton } from '#app/ui/forms.tsx'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
import { actionToast, redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/consent'
import { ConsentForm } from './consent-form.tsx'
import { SignOutForm } from '#app/ui/sign-out-form.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/dashboard')
	const [status, texts] = await Promise.all([getConsentStatus(user.id), currentConsentTexts()])
	if (!status.missing.length) throw redirect(redirectTo)
	return { forms: texts.filter((t) => status.missing.includes(t.consentType)), redirectTo }
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = await requireUser({ request, context })
	const formData = await readPageForm(request)
	const redirectTo = safeRedirect(formData.get('redirectTo'), '/dashboard')
	if (formData.get('intent') === CONSENT_INTENTS.dismissNotice) {
		const headers = { 'set-cookie': await dismissNoticeCookie(user.id) }
		// With JavaScript the notice closes in place; without it the page the person was on comes back.
		if (new URL(request.url).pathname.endsWith('.data')) return data({ dismissed: true }, { headers })
		return redirect(redirectTo, { headers })
	}
	const shown = ConsentFormSchema.parse(Object.fromEntries(formData))
	const result = await agreeToMissingConsents(user.id, shown, clientInfo(request, context))
	if (!result.ok) {
		const headers = await actionToast(request, context, { type: 'error', title: 'Consent Required', description: CONSENT_REQUIRED })
		const ticked = CONSENT_TYPES.filter((type) => shown[type] !== undefined)
		return data({ error: CONSENT_REQUIRED, ticked }, { status: 400, headers })
	}
	return redirectWithToast(redirectTo, {
		type: 'success',
		title: 'Consent Recorded',
		description: 'Thank you. Your agreement to each form has been recorded.',
	})
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

export const meta: Route.MetaFunction = () => [{ title: 'Consent forms · Hit Me Helpers' }]
