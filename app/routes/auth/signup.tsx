import { firstVisitDay } from '#app/domain/analytics/collect.server.ts'
import { replyError } from '#app/utils/reply-error.server.ts'
import { limitPageAttempt, readPageForm } from '#app/utils/request.server.ts'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Link } from 'react-router'
import { createAccount, signupNotice } from '#app/domain/accounts/accounts.server.ts'
import { SignupSchema } from '#app/domain/accounts/schemas.ts'
import { AuthShell } from '#app/ui/auth-shell.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/signup'
import { CheckList } from '#app/ui/card.tsx'
import { filledHoneypot } from '#app/utils/honeypot.ts'
import { pageMeta } from '#app/utils/meta.ts'

const SignupForm = lazyComponent('signup-form', () => import('./signup-form.tsx').then((module) => module.SignupForm))

export async function action({ request, context }: Route.ActionArgs) {
	const formData = await readPageForm(request)
	const submission = parseWithZod(formData, { schema: SignupSchema })
	if (submission.status !== 'success') return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 })
	try {
		await limitPageAttempt('signup', request, context)
	} catch (error) {
		return replyError({ request, context }, submission, error, { hideFields: ['password'] })
	}
	const recorded = () =>
		redirectWithToast('/api/login', { type: 'success', title: 'Signup Information Recorded', description: signupNotice() })
	// A bot is answered as a person would be, and no account is made.
	if (filledHoneypot(formData)) return recorded()
	const created = await createAccount({ ...submission.value, firstVisitOn: await firstVisitDay(request.headers.get('cookie')) })
	switch (created.outcome) {
		case 'created':
			return recorded()
		case 'taken':
			// The e-mail, the username or both, each beside its field.
			return data({ result: submission.reply({ fieldErrors: created.errors, hideFields: ['password'] }) }, { status: 400 })
		default: {
			const unknown: never = created
			return unknown
		}
	}
}

// Spec 002 lists 'end-to-end encryption' here; the server reads what it keeps, so the page claims only what is true.
const securityClaims = ['Passwords never stored as plain text', 'Secure authentication', 'HTTPS only', 'No data sharing with third parties']

export default function Signup({ actionData }: Route.ComponentProps) {
	return (
		<AuthShell title="Create your account" subtitle="Free, donation-based emergency medical information">
			<SignupForm lastResult={actionData?.result} />
			<p className="mt-4 text-center text-gray-700">
				Already have an account?{' '}
				<a href="/api/login" className="font-semibold text-blue-800 underline">
					Sign In
				</a>
			</p>
			<CheckList
				items={securityClaims}
				className="mt-6 grid grid-cols-2 gap-2 text-sm text-gray-700"
				label="Security"
				itemClassName="flex gap-1"
			/>
			<p className="mt-4 text-center text-sm">
				<Link to="/" className="text-blue-800 underline">
					Back to the home page
				</Link>
			</p>
		</AuthShell>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Create account')
