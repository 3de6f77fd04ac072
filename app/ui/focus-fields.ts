import { createContext, useContext } from 'react'
import { useHydrated } from '#app/utils/use-hydrated.ts'

// Apart from Modal, so the form controls that ask it do not bring the dialog's script to every page with a form.

/**
 * On a page the server rendered (before or without JavaScript), which fields ask for the browser's autofocus (the first
 * one asking gets it): on a page, those showing an error; inside a dialog, Modal decides (after a refused submission
 * those with errors, in a dialog that starts on its first field every field, else none). With JavaScript the refusal
 * moves the focus instead (`PageMeta` in forms.tsx, Modal's own effects).
 */
export const FocusFields = createContext<'errors' | 'all' | null>('errors')

export function useFocusOnError(hasErrors: boolean) {
	const asking = useContext(FocusFields)
	const hydrated = useHydrated()
	return !hydrated && (asking === 'all' || (asking === 'errors' && hasErrors))
}
