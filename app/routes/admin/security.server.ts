import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { securityChecklist, setChecklistItem } from '#app/domain/admin/security-checklist.server.ts'
import {
	disableTwoFactor,
	regenerateRecoveryCodes,
	twoFactorState,
	TwoFactorCodeSchema,
} from '#app/domain/admin/owner-two-factor.server.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { guessSource } from '#app/utils/trusted-device.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

type Args = { request: Request; context: Readonly<RouterContextProvider> }

/** The Security tab's forms: tick a checklist item (or untick it), new recovery codes, turn two-factor off. */
const SecurityActionSchema = z.discriminatedUnion(
	'intent',
	[
		// The item's id is checked by the domain, which knows the list (Unknown security item).
		z.object({ intent: z.literal('checklist'), id: z.string().max(100).default(''), done: z.string().optional() }),
		TwoFactorCodeSchema.extend({ intent: z.literal('recovery-codes') }),
		TwoFactorCodeSchema.extend({ intent: z.literal('disable') }),
	],
	{ error: UNKNOWN_ACTION },
)

export async function securityLoader(args: Args) {
	const owner = await requireGrantedOwner(args)
	const [checklist, twoFactor] = await Promise.all([securityChecklist(owner.id), twoFactorState(owner.id)])
	return { checklist, twoFactor, isOwnerAccount: owner.isOwner }
}

export async function securityAction(args: Args) {
	const owner = await requireGrantedOwner(args)
	const submission = parseWithZod(await readPageForm(args.request), { schema: SecurityActionSchema })
	// A code typed is never sent back.
	const hideFields = ['code']
	if (submission.status !== 'success') {
		const intent =
			submission.payload.intent === 'recovery-codes' || submission.payload.intent === 'disable' ? submission.payload.intent : null
		return data({ intent, result: submission.reply({ hideFields }), recoveryCodes: null }, { status: 400 })
	}
	const action = submission.value
	try {
		switch (action.intent) {
			case 'checklist':
				await setChecklistItem(owner.id, action.id, action.done === 'true')
				return redirect('/admin/security')
			case 'recovery-codes': {
				const source = await guessSource(args, 'second-factor', owner.id)
				const recoveryCodes = await regenerateRecoveryCodes(owner.id, action.code, source)
				return data({ intent: action.intent, result: null, recoveryCodes })
			}
			case 'disable': {
				const source = await guessSource(args, 'second-factor', owner.id)
				await disableTwoFactor(owner.id, action.code, source)
				return redirectWithToast('/owner-panel/two-factor', {
					type: 'message',
					title: 'Two-factor sign-in is off',
					description: 'Set it up again to use the admin area.',
				})
			}
			default: {
				const unknown: never = action
				return unknown
			}
		}
	} catch (error) {
		// A wrong code is shown beside the code of the form it came from.
		const field = action.intent === 'checklist' ? undefined : 'code'
		return replyError(args, submission, error, { field, hideFields, extra: { intent: action.intent, recoveryCodes: null } })
	}
}
