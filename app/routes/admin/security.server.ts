import { data, redirect, type RouterContextProvider } from 'react-router'
import { securityChecklist, setChecklistItem } from '#app/domain/admin/security-checklist.server.ts'
import {
	disableTwoFactor,
	regenerateRecoveryCodes,
	twoFactorState,
	TwoFactorCodeSchema,
} from '#app/domain/admin/owner-two-factor.server.ts'
import { DomainError } from '#app/utils/errors.ts'
import { requireGrantedOwner } from '#app/middleware/owner.server.ts'
import { readPageForm } from '#app/utils/request.server.ts'
import { guessSource } from '#app/utils/trusted-device.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

type Args = { request: Request; context: Readonly<RouterContextProvider> }

export async function securityLoader(args: Args) {
	const owner = await requireGrantedOwner(args)
	const [checklist, twoFactor] = await Promise.all([securityChecklist(owner.id), twoFactorState(owner.id)])
	return { checklist, twoFactor, isOwnerAccount: owner.isOwner }
}

export async function securityAction(args: Args) {
	const owner = await requireGrantedOwner(args)
	const form = await readPageForm(args.request)
	const intent = String(form.get('intent') ?? '')
	try {
		if (intent === 'checklist') {
			await setChecklistItem(owner.id, String(form.get('id') ?? ''), form.get('done') === 'true')
			return redirect('/admin/security')
		}
		const code = TwoFactorCodeSchema.safeParse({ code: form.get('code') ?? undefined })
		if (!code.success) return data({ intent, error: code.error.issues[0]!.message, recoveryCodes: null }, { status: 400 })
		const source = await guessSource(args, 'second-factor', owner.id)
		if (intent === 'recovery-codes') {
			const recoveryCodes = await regenerateRecoveryCodes(owner.id, code.data.code, source)
			return data({ intent, error: null, recoveryCodes })
		}
		if (intent === 'disable') {
			await disableTwoFactor(owner.id, code.data.code, source)
			return redirectWithToast('/owner-panel/two-factor', {
				type: 'message',
				title: 'Two-factor sign-in is off',
				description: 'Set it up again to use the owner area.',
			})
		}
	} catch (error) {
		if (error instanceof DomainError) return data({ intent, error: error.message, recoveryCodes: null }, { status: error.status })
		throw error
	}
	throw redirect('/admin/security')
}
