import { createContext, useContext } from 'react'

// Apart from Modal, so the form controls that ask it do not bring the dialog's script to every page with a form.

/**
 * Inside a dialog rendered on the server: which fields ask for the browser's autofocus (the first one asking gets it).
 * After a refused submission those with errors; in a dialog that starts on its first field, every field.
 */
export const FocusFields = createContext<'errors' | 'all' | null>(null)
export const useFocusOnError = (hasErrors: boolean) => {
	const asking = useContext(FocusFields)
	return asking === 'all' || (asking === 'errors' && hasErrors)
}
