import { parseWithZod } from '@conform-to/zod/v4'
import { redirect } from 'react-router'
import { z } from 'zod'
import {
	HelpingSchema,
	helpingRefusal,
	isResponderKey,
	newResponderKey,
	reportHelping,
	reportsBy,
	RESPONDER_HOURS,
	UPDATE_GAP_SECONDS,
} from '#app/domain/responder/helping.server.ts'
import { keptReport } from '#app/domain/responder/helping-fields.ts'
import { renderHelpingRefused, renderHelpingSent } from '#app/domain/responder/helping-page.ts'
import { pickLanguage } from '#app/domain/responder/labels.ts'
import { renderMessagePage, renderResponderPage } from '#app/domain/responder/page.ts'
import { loadResponderView } from '#app/domain/responder/responder.server.ts'
import { env, isProduction } from '#app/utils/env.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { plainCookie } from '#app/utils/plain-cookie.ts'
import { getClientIp, readPageForm } from '#app/utils/request.server.ts'
import { responderPageHeaders } from './responder-headers.server.ts'
import type { Route } from './+types/helping'

/** The report, and the language the page was shown in (a refusal answers in it too). */
const HelpingFormSchema = HelpingSchema.extend({ lang: z.string().max(10).optional() })
/** This responder's key on this phone, for the hours a report can still be updated. */
const helperCookie = plainCookie('hmh_helper', { path: '/scan', maxAge: RESPONDER_HOURS * 3600, httpOnly: true, sameSite: 'lax' })

async function responderKeyOf(request: Request) {
	const key: unknown = await helperCookie.parse(request.headers.get('cookie'))
	return typeof key === 'string' ? key : null
}

const html = (body: string, lang: string, status = 200, headers: Record<string, string> = {}) =>
	new Response(body, { status, headers: { ...responderPageHeaders(lang, true), ...headers } })

/** "I'm helping": what this responder sent from this code and the form for an update; without a report, the page itself. */
export async function loader({ request, params }: Route.LoaderArgs) {
	const lang = pickLanguage(request.headers.get('accept-language'), new URL(request.url).searchParams.get('lang'))
	const view = await loadResponderView(params.token)
	if (view.state !== 'active')
		return html(renderMessagePage(lang, view.state === 'unknown' ? 'notFound' : view.state, env.PUBLIC_URL), lang, 404)
	const key = await responderKeyOf(request)
	const sent = isResponderKey(key) ? await reportsBy(view.codeId, key) : []
	if (!sent.length) return redirect(`/scan/${encodeURIComponent(params.token)}?lang=${lang}`, 303)
	return html(renderHelpingSent(lang, params.token, sent, UPDATE_GAP_SECONDS / 60), lang)
}

/** Sends the alert (plain form post, no script needed), then shows what was sent (post, redirect, get). */
export async function action({ request, params, context }: Route.ActionArgs) {
	const submission = parseWithZod(await readPageForm(request), { schema: HelpingFormSchema })
	const asked = submission.payload.lang
	const lang = pickLanguage(request.headers.get('accept-language'), typeof asked === 'string' ? asked : null)
	const known = await responderKeyOf(request)
	if (submission.status !== 'success') {
		// The form again, as typed, with what to change beside the field: on the page it was sent from.
		const view = await loadResponderView(params.token)
		if (view.state !== 'active') return html(renderMessagePage(lang, 'inactive', env.PUBLIC_URL), lang, 404)
		if (!view.profile.helpingAlerts) return html(renderHelpingRefused(lang, params.token, 'off'), lang, 403)
		const kept = keptReport(submission.payload, Object.keys(submission.error ?? {}))
		const sent = isResponderKey(known) ? await reportsBy(view.codeId, known) : []
		const page = sent.length
			? renderHelpingSent(lang, params.token, sent, UPDATE_GAP_SECONDS / 60, kept)
			: renderResponderPage(view.profile, lang, params.token, kept)
		return html(page, lang, 400)
	}
	const key = isResponderKey(known) ? known : newResponderKey()
	const visit = { userAgent: request.headers.get('user-agent'), address: getClientIp(request, context) }
	try {
		await reportHelping(params.token, key, submission.value, visit)
	} catch (error) {
		// The responder's page is plain HTML in their language, not a form with fields: it says what the refusal means.
		if (error instanceof DomainError && error.status === 404) return html(renderMessagePage(lang, 'inactive', env.PUBLIC_URL), lang, 404)
		const reason = helpingRefusal(error)
		if (!reason || !(error instanceof DomainError)) throw error
		const retry: Record<string, string> = error.retryAfterSeconds ? { 'retry-after': String(error.retryAfterSeconds) } : {}
		return html(renderHelpingRefused(lang, params.token, reason), lang, error.status, retry)
	}
	const secure = isProduction && env.PUBLIC_URL.startsWith('https:')
	return redirect(`/scan/${encodeURIComponent(params.token)}/helping?lang=${lang}`, {
		status: 303,
		headers: { 'set-cookie': await helperCookie.serialize(key, { secure }) },
	})
}
