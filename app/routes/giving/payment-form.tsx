import { loadStripe, type Stripe, type StripeElements } from '@stripe/stripe-js'
import { useEffect, useRef, useState } from 'react'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { showClientToast } from '#app/utils/network-failure.ts'

const UNEXPECTED = 'An unexpected error occurred'
const ERROR_ID = 'payment-error'

/** Stripe's Payment Element for a PaymentIntent; Stripe sends the browser to /donation-success once it is paid. */
export function PaymentForm({ clientSecret, publishableKey }: { clientSecret: string; publishableKey: string }) {
	const mountRef = useRef<HTMLDivElement>(null)
	const [ready, setReady] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null)
	const [error, setError] = useState<string | null>(null)
	const [paying, setPaying] = useState(false)

	useEffect(() => {
		let cancelled = false
		loadStripe(publishableKey)
			.then((stripe) => {
				if (cancelled || !stripe || !mountRef.current) return
				const elements = stripe.elements({ clientSecret })
				elements.create('payment').mount(mountRef.current)
				setReady({ stripe, elements })
			})
			.catch(() => setError('The payment form could not load. Please check your connection and try again.'))
		return () => {
			cancelled = true
		}
	}, [clientSecret, publishableKey])

	async function pay(event: React.FormEvent) {
		event.preventDefault()
		if (!ready) return
		setPaying(true)
		setError(null)
		try {
			const { error: failure } = await ready.stripe.confirmPayment({
				elements: ready.elements,
				confirmParams: { return_url: new URL('/donation-success', window.location.origin).toString() },
			})
			// Only a failure comes back here; success leaves for the return page.
			const message = failure?.message ?? UNEXPECTED
			setError(message)
			showClientToast({ type: 'error', title: 'Payment Failed', description: message })
		} catch {
			setError(UNEXPECTED)
			showClientToast({ type: 'error', title: 'Payment Failed', description: UNEXPECTED })
		} finally {
			setPaying(false)
		}
	}

	// A failed payment is announced once, by its 'Payment Failed' toast; the message stays beside the button, which
	// describes it, and focus stays there for another try. Until the card form is in, the button says it is loading.
	return (
		<form onSubmit={pay} className="space-y-4">
			<div ref={mountRef} aria-busy={!ready} />
			<ErrorList id={ERROR_ID} errors={error ? [error] : undefined} />
			<StatusButton
				type="submit"
				pending={paying || (!ready && !error)}
				pendingLabel={ready ? 'Processing...' : 'Loading...'}
				aria-describedby={error ? ERROR_ID : undefined}
			>
				Donate Now
			</StatusButton>
		</form>
	)
}
