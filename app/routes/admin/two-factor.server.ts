import { parseWithZod } from '@conform-to/zod/v4'
import { createContext, data, redirect, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import {
	confirmEnrolment,
	pendingEnrolment,
	startEnrolment,
	verifySecondFactor,
	TwoFactorCodeSchema,
} from '#app/domain/admin/owner-two-factor.server.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { markSecondFactorPassed, ownerAccess, ownerOnlyPage } from '#app/middleware/owner.server.ts'
import type { RequestArgs } from '#app/utils/request.server.ts'
import { loginPath } from '#app/utils/auth.server.ts'
import { pageUrl, safeRedirect } from '#app/utils/http.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { getSession, sessionStorage } from '#app/utils/session.server.ts'
import { guessSource, trustDevice } from '#app/utils/trusted-device.server.ts'

const destination = (request: Request) => safeRedirect(new URL(request.url).searchParams.get('redirectTo'), '/admin')

async function ownerOnly(args: RequestArgs) {
	const access = await ownerAccess(args)
	if (access.kind === 'visitor') throw redirect(loginPath(args.request))
	if (access.kind === 'denied') throw ownerOnlyPage()
	return access
}

/** Set by the action that just turned two-factor on, so the page it renders (with the recovery codes) is not left. */
const enrolledNow = createContext(false)

export async function twoFactorLoader(args: RequestArgs) {
	const access = await ownerOnly(args)
	if (access.kind === 'granted' && args.context.get(enrolledNow)) return { step: 'enrolled' as const, enrolment: null }
	if (access.kind === 'granted') throw redirect(destination(args.request))
	if (access.kind === 'verify') return { step: 'verify' as const, enrolment: null }
	const enrolment = await pendingEnrolment(access.user.id, access.user.email)
	return {
		step: 'enrol' as const,
		enrolment: enrolment
			? {
					secret: enrolment.secret,
					qrSvg: `data:image/svg+xml;base64,${Buffer.from(renderQrSvg({ data: enrolment.otpauthUri, color: '#000000', circular: false, width: 240, margin: 2 })).toString('base64')}`,
				}
			: null,
	}
}

/** The session marked as past the second factor, and this browser remembered as one that passed it. */
async function passedHeaders(args: RequestArgs, userId: string) {
	const session = await getSession(args)
	markSecondFactorPassed(session, userId)
	const headers = new Headers()
	headers.append('set-cookie', await sessionStorage.commitSession(session))
	headers.append('set-cookie', await trustDevice(args.request, 'second-factor', userId))
	return headers
}

/** The page's two forms: Start Setup, or a code (to confirm the setup, or to pass the second factor). */
const TwoFactorActionSchema = z.discriminatedUnion(
	'intent',
	[
		z.object({ intent: z.literal('start') }),
		// The code form has carried no intent: one without it is a code.
		TwoFactorCodeSchema.extend({ intent: z.literal('code').optional() }),
	],
	{ error: UNKNOWN_ACTION },
)

export async function twoFactorAction(args: RequestArgs) {
	const access = await ownerOnly(args)
	if (access.kind === 'granted') throw redirect(destination(args.request))
	const submission = parseWithZod(await readPageForm(args.request), { schema: TwoFactorActionSchema })
	// A code typed is never sent back.
	const hideFields = ['code']
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields }), recoveryCodes: null }, { status: 400 })
	const userId = access.user.id
	const action = submission.value
	try {
		switch (action.intent) {
			case 'start':
				// Once two-factor is on there is nothing to start: the domain refuses (409).
				await startEnrolment(userId, access.user.email)
				// The page again, now with the key to scan (a data request's own address ends in .data).
				return redirect(`${pageUrl(args.request).pathname}${pageUrl(args.request).search}`)
			case 'code':
			case undefined: {
				const source = await guessSource(args, 'second-factor', userId)
				if (access.kind === 'enrol') {
					const { recoveryCodes } = await confirmEnrolment(userId, action.code, source)
					// The recovery codes are shown once, in this answer: nothing keeps them in plain text afterwards.
					const headers = await passedHeaders(args, userId)
					;(args.context as RouterContextProvider).set(enrolledNow, true)
					return data({ result: null, recoveryCodes, continueTo: destination(args.request) }, { headers })
				}
				await verifySecondFactor(userId, action.code, source)
				return redirect(destination(args.request), { headers: await passedHeaders(args, userId) })
			}
			default: {
				const unknown: never = action
				return unknown
			}
		}
	} catch (error) {
		return replyError(args, submission, error, {
			field: action.intent === 'start' ? undefined : 'code',
			hideFields,
			extra: { recoveryCodes: null },
		})
	}
}
