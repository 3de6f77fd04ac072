import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { createContext, useContext } from 'react'
import { Form } from 'react-router'
import type { z } from 'zod'
import { StatusButton, type ButtonVariant } from '#app/ui/forms.tsx'
import { screenHref, type ScreenState } from './intents.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { useSchemaForm } from '#app/ui/use-schema-form.ts'
import type { Unreachable } from '#app/utils/network-failure.ts'
import { useIntentPending } from '#app/utils/use-is-pending.ts'
import type { MedicalInfoData } from './medical-info.server.ts'

export type Failure = { intent: string; id?: number | null; result: SubmissionResult<string[]> }

type Screen = MedicalInfoData & { base: string; failure: Failure | null }
const ScreenContext = createContext<Screen | null>(null)
export const ScreenProvider = ScreenContext.Provider

export function useScreen() {
	const screen = useContext(ScreenContext)
	if (!screen) throw new Error('useScreen outside the Medical Information screen')
	const profileId = screen.profile?.id ?? null
	const href = (state: Omit<ScreenState, 'profile'> = {}, hash?: string) => screenHref(screen.base, { profile: profileId, ...state }, hash)
	// A viewer reads a shared profile: its forms are not shown (the server refuses them anyway). Only its owner sees
	// what belongs to the owner: deleting it, its codes, its reminders and alerts, who helps keep it.
	return { ...screen, profileId, href, canEdit: screen.role !== 'viewer', isOwner: screen.role === 'owner' }
}

/** A conform form for one intent (and row): only the failure it caused comes back into it. */
export function useSectionForm<S extends z.ZodObject>(
	intent: string,
	schema: S,
	options: { id?: number | null; defaultValue?: Partial<Record<keyof z.input<S>, unknown>> } = {},
) {
	const { failure, profileId } = useScreen()
	const mine = failure && failure.intent === intent && (failure.id ?? null) === (options.id ?? null) ? failure.result : undefined
	return useSchemaForm(schema, {
		// The profile is part of the id: conform keeps a form's values until its id changes, so another profile's
		// form must be another form (or Personal Information would show, and save, the previous profile's values).
		id: [intent, profileId ? `p${profileId}` : null, options.id].filter(Boolean).join('-'),
		lastResult: mine,
		defaultValue: toFormValues(options.defaultValue) as never,
	})
}

/** Form fields hold strings: nulls become empty, booleans 'on'. */
function toFormValues(values?: Record<string, unknown>) {
	if (!values) return undefined
	return Object.fromEntries(
		Object.entries(values).map(([k, v]) => [k, v == null ? '' : typeof v === 'boolean' ? (v ? 'on' : '') : String(v)]),
	)
}

export { useIntentPending }

/** A one-button form: delete, clear, toggle. Carries the profile and row ids. */
export function ActionButton({
	intent,
	id,
	label,
	pendingLabel,
	variant = 'secondary',
	extra,
	accessibleName,
	offline,
}: {
	intent: string
	id?: number
	label: string
	pendingLabel?: string
	variant?: ButtonVariant
	extra?: Record<string, string>
	accessibleName?: string
	offline?: Unreachable
}) {
	const { profileId } = useScreen()
	const pending = useIntentPending(intent, id)
	return (
		<Form method="post" preventScrollReset className="inline">
			<input type="hidden" name="profileId" value={profileId ?? ''} />
			{id ? <input type="hidden" name="id" value={id} /> : null}
			{Object.entries(extra ?? {}).map(([name, value]) => (
				<input key={name} type="hidden" name={name} value={value} />
			))}
			{offline ? <OfflineMessage {...offline} /> : null}
			<StatusButton
				intent={intent}
				variant={variant}
				pending={pending}
				pendingLabel={pendingLabel}
				aria-label={accessibleName}
				className="min-h-9 px-3 py-1 text-sm"
			>
				{label}
			</StatusButton>
		</Form>
	)
}

export function HiddenIds({ id }: { id?: number | null }) {
	const { profileId } = useScreen()
	return (
		<>
			<input type="hidden" name="profileId" value={profileId ?? ''} />
			{id ? <input type="hidden" name="id" value={id} /> : null}
		</>
	)
}

export { Form, getFormProps }
