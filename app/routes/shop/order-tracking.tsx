import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { TrackOrderSchema } from '#app/domain/shop/schemas.ts'
import { ErrorList, StatusButton } from '#app/ui/forms.tsx'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { useIsPending } from '#app/utils/use-is-pending.ts'
import type { Route } from './+types/order-tracking'
import { OrderFacts, OrderItems, TrackingSteps } from './order-details.tsx'
import { trackingAction, trackingLoader } from './order-tracking.server.ts'
import { TextField } from '#app/ui/text-field.tsx'

export async function loader({ request, context }: Route.LoaderArgs) {
	return trackingLoader({ request, context })
}

export async function action({ request, context }: Route.ActionArgs) {
	return trackingAction(request, context)
}

/** Spec 002 §9: the FAQ's promises. */
const FAQ = [
	{ q: 'When will my order be processed?', a: 'Orders are processed within 1-2 business days.' },
	{ q: 'When will my order ship?', a: 'Orders ship within 3-5 business days, and the tracking number is sent by e-mail.' },
	{ q: 'Can I change my order?', a: 'Changes are possible within 24 hours of ordering: contact support with your confirmation number.' },
]

export default function OrderTracking({ loaderData, actionData }: Route.ComponentProps) {
	const { order, supportEmail } = loaderData
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'track-order',
		lastResult: actionData?.result,
		defaultValue: { confirmationNumber: loaderData.number, email: loaderData.email },
		constraint: getZodConstraint(TrackOrderSchema),
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TrackOrderSchema }),
	})
	return (
		<div className="min-h-screen pb-24">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8">
				<h1 className="text-3xl font-bold text-gray-900">Track Your Order</h1>
				<Form method="post" {...getFormProps(form)} className="space-y-4 rounded-xl border border-gray-300 bg-white p-6 shadow-sm">
					<p className="text-gray-800">Enter the confirmation number from your confirmation e-mail and the e-mail address the order was placed with.</p>
					<div className="grid gap-4 sm:grid-cols-2">
						<TextField field={fields.confirmationNumber} label="Confirmation number" placeholder="HMH-12345678" autoComplete="off" className="uppercase" />
						<TextField field={fields.email} label="Email" type="email" autoComplete="email" />
					</div>
					<ErrorList id={form.errorId} errors={form.errors} />
					<StatusButton type="submit" pending={isPending} pendingLabel="Tracking...">
						Track Order
					</StatusButton>
				</Form>
				{order ? (
					<section aria-labelledby="result-title" className="space-y-5 rounded-xl border border-gray-300 bg-white p-6 shadow-sm">
						<h2 id="result-title" className="text-2xl font-bold">
							Order {order.confirmationNumber}
						</h2>
						<OrderFacts order={order} />
						<TrackingSteps order={order} />
						<OrderItems order={order} />
					</section>
				) : null}
				<section aria-labelledby="help-title" className="space-y-3 rounded-xl border border-gray-300 bg-white p-6 shadow-sm">
					<h2 id="help-title" className="text-xl font-bold">
						Need help?
					</h2>
					<p className="text-gray-800">
						Write to{' '}
						<a href={`mailto:${supportEmail}`} className="font-semibold text-blue-800 underline">
							{supportEmail}
						</a>{' '}
						with your confirmation number.
					</p>
					<h3 className="text-lg font-bold">Frequently asked questions</h3>
					<dl className="space-y-2">
						{FAQ.map((item) => (
							<div key={item.q}>
								<dt className="font-semibold">{item.q}</dt>
								<dd className="text-gray-800">{item.a}</dd>
							</div>
						))}
					</dl>
				</section>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => [
	{ title: 'Track Your Order · Hit Me Helpers' },
	{ name: 'description', content: 'Track a Hit Me Helpers order with its confirmation number and e-mail address.' },
]
