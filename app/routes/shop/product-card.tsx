import { useRef, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { customTextStatus, DEFAULT_QR_COLOR, QR_COLORS } from '#app/domain/qr/palette.ts'
import type { ShopProduct } from '#app/domain/shop/cart.server.ts'
import { formatCents } from '#app/domain/shop/pricing.ts'
import { buttonClass, CheckboxField, ErrorList, Field, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { cardClass } from '#app/ui/card.tsx'
import { CustomTextField } from '#app/features/custom-text/custom-text-field.tsx'

const PREVIEW_DEBOUNCE_MS = 300
const PREVIEW_FIELDS = ['color', 'qrShape', 'customText', 'transparentBackground'] as const

function previewSrc(options: Record<string, string>) {
	const params = new URLSearchParams(PREVIEW_FIELDS.flatMap((f) => (options[f] ? [[f, options[f]!]] : [])))
	return `/shop/preview.svg?${params}`
}

/** One product: its options, a preview of the look, and Add to Cart. */
export function ProductCard({
	product,
	preview,
	errors,
}: {
	product: ShopProduct
	preview: Record<string, string> | null
	errors?: Record<string, string[]>
}) {
	const hydrated = useHydrated()
	const navigation = useNavigation()
	const pending = navigation.state !== 'idle' && navigation.formData?.get('productId') === String(product.id)
	const form = useRef<HTMLFormElement>(null)
	const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
	const initial = preview ?? { color: DEFAULT_QR_COLOR, qrShape: 'circular' }
	const [src, setSrc] = useState(previewSrc(initial))
	const [text, setText] = useState(initial.customText ?? '')
	const status = customTextStatus(text)
	const titleId = `product-${product.id}-title`
	const refresh = () => {
		clearTimeout(timer.current)
		timer.current = setTimeout(() => {
			if (form.current) setSrc(previewSrc(Object.fromEntries(new FormData(form.current)) as Record<string, string>))
		}, PREVIEW_DEBOUNCE_MS)
	}
	return (
		<li id={`product-${product.id}`} aria-labelledby={titleId} className={cardClass('min-w-0 p-5')}>
			<div className="flex items-start justify-between gap-3">
				<h2 id={titleId} className="text-xl font-bold">
					{product.name}
				</h2>
				<p className="shrink-0 text-right">
					<span className="block font-bold text-green-800">FREE</span>
					<span className="block text-sm text-gray-700">value {formatCents(product.priceCents)}</span>
				</p>
			</div>
			<p className="mt-1 text-gray-800">{product.description}</p>
			<figure className="my-4 flex justify-center">
				<div
					className={`flex items-center justify-center border-4 border-gray-300 bg-[repeating-conic-gradient(#f3f4f6_0_25%,#fff_0_50%)] bg-[length:16px_16px] p-3 ${product.category === 'card' ? 'h-44 w-72 rounded-2xl' : 'size-44 rounded-lg'}`}
				>
					<img src={src} alt={`Preview of the ${product.name} QR code`} className="max-h-full max-w-full" width={150} height={150} />
				</div>
			</figure>
			<Form method="post" ref={form} onChange={refresh} preventScrollReset className="space-y-3">
				<input type="hidden" name="productId" value={product.id} />
				<SelectField
					label="Colour"
					errors={errors?.color}
					selectProps={{ name: 'color', defaultValue: initial.color }}
					options={QR_COLORS.map((c) => ({ value: c.hex, label: c.name }))}
				/>
				<fieldset>
					<legend className="mb-1 text-sm font-semibold text-gray-800">QR shape</legend>
					<div className="flex gap-4">
						{(['circular', 'square'] as const).map((shape) => (
							<label key={shape} className="flex items-center gap-2">
								<input
									type="radio"
									name="qrShape"
									value={shape}
									defaultChecked={(initial.qrShape ?? 'circular') === shape}
									className="size-4 accent-red-700"
								/>
								{shape === 'circular' ? 'Circular' : 'Square'}
							</label>
						))}
					</div>
				</fieldset>
				{product.engraved ? <p className="text-sm text-gray-700">The QR code is engraved.</p> : null}
				{product.supportsSticker ? (
					<CheckboxField
						label={product.engraved ? 'Add a coloured QR sticker instead of engraving' : 'Add QR sticker'}
						inputProps={{ name: 'addSticker', defaultChecked: initial.addSticker === 'on' }}
					/>
				) : null}
				{product.supportsTransparent ? (
					<CheckboxField
						label="Transparent background"
						inputProps={{ name: 'transparentBackground', defaultChecked: initial.transparentBackground === 'on' }}
					/>
				) : null}
				<CustomTextField
					defaultValue={initial.customText ?? ''}
					errors={errors?.customText}
					status={status}
					hydrated={hydrated}
					onText={setText}
				/>
				<Field
					label="Quantity"
					errors={errors?.quantity}
					inputProps={{ name: 'quantity', type: 'number', min: 1, max: 99, defaultValue: initial.quantity ?? '1', className: 'max-w-28' }}
				/>
				<ErrorList errors={errors?.form} alert />
				<div className="flex flex-wrap gap-2">
					{/* A custom text that does not fit is answered beside it; the button never waits for it. */}
					<StatusButton type="submit" pending={pending} pendingLabel="Adding...">
						Add to Cart
					</StatusButton>
					{hydrated ? null : (
						<button
							type="submit"
							formMethod="get"
							formAction={`/shop#product-${product.id}`}
							name="preview"
							value={product.id}
							className={buttonClass('secondary')}
						>
							Preview
						</button>
					)}
				</div>
			</Form>
		</li>
	)
}
