import { createContext, data, redirect, type RouterContextProvider } from 'react-router'
import {
	confirmEnrolment,
	pendingEnrolment,
	startEnrolment,
	verifySecondFactor,
	TwoFactorCodeSchema,
} from '#app/domain/admin/owner-two-factor.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { markSecondFactorPassed, ownerAccess, ownerOnlyPage } from '#app/middleware/owner.server.ts'
import type { RequestArgs } from '#app/middleware/user.server.ts'
import { loginPath } from '#app/utils/auth.server.ts'
import { safeRedirect } from '#app/utils/http.ts'
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
	const session = await getSession(args.request)
	markSecondFactorPassed(session, userId)
	const headers = new Headers()
	headers.append('set-cookie', await sessionStorage.commitSession(session))
	headers.append('set-cookie', await trustDevice(args.request, 'second-factor', userId))
	return headers
}

export async function twoFactorAction(args: RequestArgs) {
	const access = await ownerOnly(args)
	if (access.kind === 'granted') throw redirect(destination(args.request))
	const form = await readPageForm(args.request)
	const userId = access.user.id
	try {
		if (form.get('intent') === 'start' && access.kind === 'enrol') {
			await startEnrolment(userId, access.user.email)
			return redirect(new URL(args.request.url).pathname + new URL(args.request.url).search)
		}
		const parsed = TwoFactorCodeSchema.safeParse({ code: form.get('code') ?? undefined })
		if (!parsed.success) return data({ error: parsed.error.issues[0]!.message, recoveryCodes: null }, { status: 400 })
		const source = await guessSource(args, 'second-factor', userId)
		if (access.kind === 'enrol') {
			const { recoveryCodes } = await confirmEnrolment(userId, parsed.data.code, source)
			// The recovery codes are shown once, in this answer: nothing keeps them in plain text afterwards.
			const headers = await passedHeaders(args, userId)
			;(args.context as RouterContextProvider).set(enrolledNow, true)
			return data({ error: null, recoveryCodes, continueTo: destination(args.request) }, { headers })
		}
		await verifySecondFactor(userId, parsed.data.code, source)
		return redirect(destination(args.request), { headers: await passedHeaders(args, userId) })
	} catch (error) {
		if (error instanceof DomainError) return data({ error: error.message, recoveryCodes: null }, { status: error.status })
		throw error
	}
}
