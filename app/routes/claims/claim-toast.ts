import type { ClaimResult } from '#app/domain/claims/claims.server.ts'

/** What every claim path (the claim page, a PIN typed on the landing page, a PIN carried through sign-in) says. */
export function claimToast(result: ClaimResult) {
	return result.ok
		? ({ type: 'success', title: 'QR Code Claimed', description: 'This QR code is now linked to your account.' } as const)
		: ({ type: 'error', title: 'Claim Failed', description: result.message } as const)
}
