import { useEffect, type ReactNode } from 'react'
import { Form, Link, useLocation } from 'react-router'
import type { Unreachable } from '#app/utils/network-failure.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import { buttonClass, StatusButton } from './forms.tsx'
import { Modal } from './modal.tsx'
import { OfflineMessage } from './offline-message.tsx'

/**
 * The step before something that cannot be taken back (a row deleted, a link revoked): a dialog opened by a plain link
 * (its state is the URL), so it asks with or without JavaScript. Focus starts on its safe way out; only its own submit,
 * which posts `intent` with `fields`, does the deed.
 */
export function ConfirmDialog({
	title,
	closeHref,
	intent,
	fields,
	confirmLabel,
	pendingLabel,
	offline,
	children,
}: {
	title: string
	closeHref: string
	intent: string
	fields: Record<string, string | number>
	confirmLabel: string
	pendingLabel: string
	offline?: Unreachable
	children: ReactNode
}) {
	const pending = useIntentPending(intent)
	return (
		<Modal title={title} closeHref={closeHref} start="close">
			<div className="space-y-2 text-gray-800">{children}</div>
			<Form method="post" preventScrollReset className="mt-6 flex flex-wrap justify-end gap-2">
				{Object.entries(fields).map(([name, value]) => (
					<input key={name} type="hidden" name={name} value={value} />
				))}
				{offline ? <OfflineMessage {...offline} /> : null}
				<Link to={closeHref} preventScrollReset className={buttonClass('secondary')}>
					Cancel
				</Link>
				<StatusButton intent={intent} pending={pending} pendingLabel={pendingLabel}>
					{confirmLabel}
				</StatusButton>
			</Form>
		</Modal>
	)
}

/**
 * Where focus goes when a confirmed change comes back (the page's URL names it): with JavaScript, `target()` after each
 * such navigation; without, the element given `autoFocus: serverFocus`. (A URL fragment would stop the browser's
 * autofocus, so these pages come back without one.)
 */
export function useFocusAfterChange(active: boolean, target: () => HTMLElement | null | undefined) {
	const { key } = useLocation()
	const hydrated = useHydrated()
	useEffect(() => {
		if (active) target()?.focus()
		// Once per arrival: a later render of the same page leaves focus where the person put it.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [active, key])
	return { serverFocus: active && !hydrated }
}
