import { HONEYPOT_FIELD } from '#app/utils/honeypot.ts'

/** The hidden field of app/utils/honeypot.ts: out of sight, out of the tab order and of the accessibility tree. */
export function HoneypotField({ id }: { id: string }) {
	return (
		<div className="hidden" aria-hidden="true">
			<label htmlFor={id}>Leave this field empty</label>
			<input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
		</div>
	)
}
