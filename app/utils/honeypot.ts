/**
 * A field no person sees or fills, on every form anyone may send without signing in. Bots that fill every field fill it
 * too; each form then answers as it would a person (a success, or the usual refusal) without doing anything.
 */
export const HONEYPOT_FIELD = 'website'

export function filledHoneypot(form: FormData) {
	const value = form.get(HONEYPOT_FIELD)
	return value !== null && value !== ''
}
