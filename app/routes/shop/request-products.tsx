import { useEffect, useRef, useState } from 'react'
import { Form, Link, useFetcher, useNavigation } from 'react-router'
import { QR_COLORS } from '#app/domain/qr/palette.ts'
import { REQUEST_PAGE } from '#app/domain/shop/messages.ts'
import { buttonClass, CheckboxField, ErrorList, Field, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { ShopHeader } from '#app/routes/shop/shop-header.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import type { Route } from './+types/request-products'
import { requestProductsAction, requestProductsLoader, type RequestProductsData } from './request-products.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { pageMeta } from '#app/utils/meta.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
	return requestProductsLoader({ request, context })
}

export async function action({ request, context }: Route.ActionArgs) {
	return requestProductsAction(request, context)
}

const PREVIEW_DEBOUNCE_MS = 300
const colorOptions = QR_COLORS.map((c) => ({ value: c.hex, label: c.name }))

export default function RequestProducts({ loaderData, actionData }: Route.ComponentProps) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const fetcher = useFetcher<RequestProductsData>()
	const formRef = useRef<HTMLFormElement>(null)
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const [url, setUrl] = useState(loaderData.qrCodeUrl)
	useEffect(() => setUrl(loaderData.qrCodeUrl), [loaderData.qrCodeUrl])
	useEffect(() => () => clearTimeout(timer.current), [])
	const refused = actionData?.result.error ?? {}
	const errors = { qrCodeUrl: refused.qrCodeUrl, color: refused.color }
	// The refusal of one product's line is said on that product's card: its size beside the sizes, the rest by its button.
	const lineErrors = (productId: number, size: boolean) =>
		actionData?.productId === productId
			? Object.entries(refused).flatMap(([field, messages]) =>
					(field === 'stickerSize') === size && field !== 'qrCodeUrl' && field !== 'color' ? (messages ?? []) : [],
				)
			: undefined
	const preview = fetcher.data ?? loaderData
	const addingId = navigation.state === 'submitting' ? navigation.formData?.get('productId') : null

	const refresh = () => {
		clearTimeout(timer.current)
		timer.current = setTimeout(() => {
			if (!formRef.current) return
			const params = new URLSearchParams()
			for (const name of ['profileId', 'qrCodeUrl', 'color']) params.set(name, String(new FormData(formRef.current).get(name) ?? ''))
			fetcher.load(`${REQUEST_PAGE}?${params}`)
		}, PREVIEW_DEBOUNCE_MS)
	}

	return (
		<div className="min-h-screen pb-24">
			<ShopHeader />
			<main id="main" className="mx-auto max-w-5xl px-4 py-8">
				<h1 className="text-3xl font-bold text-gray-900">Request Medical Alert Products</h1>
				<p className="mt-2 text-lg text-gray-700">
					Free stickers and cards printed with the QR code of one of your profiles. Add them to your cart, then check out from the cart.
					Looking for cards and stickers with more options?{' '}
					<Link to="/shop" className="font-semibold text-blue-800 underline">
						Visit the shop
					</Link>
				</p>
				<Form method="post" ref={formRef} onChange={refresh} preventScrollReset className="mt-6 space-y-6">
					{/* Enter in a field previews, rather than adding the first product. */}
					<button type="submit" formMethod="get" name="preview" value="1" className="sr-only" tabIndex={-1} aria-hidden="true">
						Preview
					</button>
					<section aria-labelledby="code-title" className={cardClass('grid gap-6 p-6 md:grid-cols-[1fr_auto]')}>
						<div className="space-y-4">
							<h2 id="code-title" className="text-xl font-bold">
								Your QR code
							</h2>
							{loaderData.profiles.length ? (
								<div className="flex flex-wrap items-end gap-2">
									<SelectField
										label="Medical profile"
										className="min-w-64 flex-1"
										options={loaderData.profiles.map((p) => ({ value: String(p.id), label: p.label }))}
										selectProps={{
											name: 'profileId',
											defaultValue: loaderData.profileId ?? undefined,
											onChange: (e) => {
												const chosen = loaderData.profiles.find((p) => String(p.id) === e.currentTarget.value)
												if (chosen?.qrCodeUrl) setUrl(chosen.qrCodeUrl)
											},
										}}
									/>
									{hydrated ? null : (
										<button type="submit" formMethod="get" name="useProfile" value="1" className={buttonClass('secondary')}>
											Use this profile
										</button>
									)}
								</div>
							) : (
								<p className="text-gray-700">No profiles found. Please create a medical profile first.</p>
							)}
							<Field
								label="QR code URL"
								errors={errors.qrCodeUrl}
								hint="What the printed code opens: your profile's emergency page unless you change it."
								inputProps={{
									name: 'qrCodeUrl',
									type: 'text',
									inputMode: 'url',
									autoComplete: 'url',
									value: url,
									onChange: (e) => setUrl(e.currentTarget.value),
									'aria-required': true,
								}}
							/>
							<SelectField
								label="QR colour"
								errors={errors.color}
								options={colorOptions}
								selectProps={{ name: 'color', defaultValue: loaderData.color }}
							/>
							{hydrated ? null : (
								<button type="submit" formMethod="get" name="preview" value="1" className={buttonClass('secondary')}>
									Preview
								</button>
							)}
						</div>
						<figure className="flex flex-col items-center gap-2">
							<div className="flex size-60 items-center justify-center rounded-lg border border-gray-300 bg-white p-2" aria-live="polite">
								{preview.previewSvg ? (
									<div
										className="size-full [&>svg]:size-full"
										role="img"
										aria-label="QR code preview"
										dangerouslySetInnerHTML={{ __html: preview.previewSvg }}
									/>
								) : (
									<span className="p-4 text-center text-gray-700">{preview.previewError}</span>
								)}
							</div>
							<figcaption className="text-sm text-gray-700">Preview</figcaption>
						</figure>
					</section>
					<ul className="grid gap-6 md:grid-cols-3">
						{loaderData.products.map((product) => (
							<li key={product.id}>
								<article aria-labelledby={`request-${product.id}-title`} className={cardClass('flex h-full flex-col gap-3 p-5')}>
									<h2 id={`request-${product.id}-title`} className="text-lg font-bold">
										{product.name}
									</h2>
									<p className="text-gray-800">{product.description}</p>
									<p className="font-bold text-green-800">FREE</p>
									{product.sizes.length ? (
										<fieldset>
											<legend className="mb-1 text-sm font-semibold text-gray-800">Sticker size</legend>
											{product.sizes.map((size) => (
												<label key={size.id} className="flex items-center gap-2">
													<input type="radio" name={`size-${product.id}`} value={size.id} className="size-5 accent-red-700" />
													{size.label}
												</label>
											))}
											<ErrorList errors={lineErrors(product.id, true)} />
										</fieldset>
									) : null}
									{product.supportsSticker ? (
										<CheckboxField
											label="Add a coloured QR sticker instead of engraving"
											inputProps={{ name: `addSticker-${product.id}` }}
										/>
									) : null}
									<ErrorList errors={lineErrors(product.id, false)} />
									<StatusButton
										type="submit"
										name="productId"
										value={product.id}
										className="mt-auto"
										pending={addingId === String(product.id)}
										pendingLabel="Adding..."
									>
										Add to Cart
									</StatusButton>
								</article>
							</li>
						))}
					</ul>
				</Form>
			</main>
		</div>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('Request Products')
