import { Form } from 'react-router'
import { OfflineMessage } from './offline-message.tsx'

/** Every sign-out button posts here; `switchAccount` returns to the sign-in choices instead of the landing page. */
export function SignOutForm({ children, switchAccount = false }: { children: React.ReactNode; switchAccount?: boolean }) {
	return (
		<Form method="post" action="/api/auth/logout">
			{switchAccount ? <input type="hidden" name="switch" value="true" /> : null}
			<OfflineMessage title="Logout Error" description="There was an issue logging out. Please try again." />
			{children}
		</Form>
	)
}
