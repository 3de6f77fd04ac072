import { DomainError } from '#app/utils/errors.ts'

export const CLAIMED_TOAST = {
	type: 'success',
	title: 'QR Code Claimed',
	description: 'This QR code is now linked to your account.',
} as const
export const CLAIM_FAILED = 'Claim Failed'

/**
 * What a PIN carried through sign-in says once the claim is settled: claimed, or why not. Signing in goes on either
 * way, so a refusal is only this toast; anything that is not a refusal is thrown on.
 */
export function claimToast(claim: Promise<unknown>) {
	return claim.then(
		() => CLAIMED_TOAST,
		(error: unknown) => {
			if (!(error instanceof DomainError)) throw error
			return { type: 'error', title: CLAIM_FAILED, description: error.message } as const
		},
	)
}
