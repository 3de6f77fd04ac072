import { useLocation } from 'react-router'
import { HEALTH_LINK_INTENTS } from '#app/domain/sharing/options.ts'
import { ConfirmDialog } from '#app/ui/confirm-dialog.tsx'
import type { HealthLinkCard } from './health-links.server.ts'

export const revokeLinkId = (id: number) => `revoke-${id}`
/** The link the address names: about to be revoked (`revoke`, the question) or just revoked (`revoked`). */
export const useLinkParam = (name: 'revoke' | 'revoked') => Number(new URLSearchParams(useLocation().search).get(name))

/**
 * The tab's address with `revoke` (the question before a link is revoked) set to `id`; without `ask`, the address the
 * question's way out leads to, back on that link's Revoke (the browser focuses a fragment's target).
 */
export function useRevokeHref() {
	const { pathname, search } = useLocation()
	return (id: number, ask = true) => {
		const params = new URLSearchParams(search)
		params.delete('revoked')
		if (ask) params.set('revoke', String(id))
		else params.delete('revoke')
		const query = params.toString()
		return `${pathname}${query ? `?${query}` : ''}${ask ? '' : `#${revokeLinkId(id)}`}`
	}
}

/** The question before an active link is revoked (?revoke=…): Close leads back to the link's Revoke. */
export function RevokeQuestion({ link }: { link: HealthLinkCard['links'][number] }) {
	const revokeHref = useRevokeHref()
	return (
		<ConfirmDialog
			title="Revoke this SMART Health Link?"
			closeHref={revokeHref(link.id, false)}
			intent={HEALTH_LINK_INTENTS.revoke}
			fields={{ linkId: link.id }}
			confirmLabel="Revoke Link"
			pendingLabel="Revoking..."
			offline={{ title: 'Error', description: 'Failed to revoke the SMART Health Link' }}
		>
			<p>
				“{link.label ?? 'Untitled link'}” stops opening anything at once, for everyone who has it, and cannot be turned back on. To share
				again, make a new link.
			</p>
		</ConfirmDialog>
	)
}
