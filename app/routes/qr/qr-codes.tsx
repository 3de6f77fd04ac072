import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/qr-codes'
import { CodeCard } from './code-card.tsx'
import { QR_INTENTS } from './intents.ts'
import { PinForm } from '../auth/pin-form-lazy.ts'
import { PIN_INTENT } from '../auth/pin-intent.ts'
import { qrCodesAction, qrCodesLoader } from './qr-codes.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { CardDownloads } from '../cards/card-downloads-lazy.ts'
import { cardReadyProfiles } from '../cards/card-downloads.server.ts'
import { HealthLinks } from '../sharing/health-links-lazy.ts'
import { healthLinkAction, healthLinksData } from '../sharing/health-links.server.ts'

// The look editor (live preview, colour and text checks) loads after the page; until then Preview and Save post plainly.
const Customizer = lazyComponent('qr-customizer', () => import('./customizer.tsx').then((module) => module.Customizer))
// Shown only to accounts that may generate codes themselves: its code is no part of the page's first load.
const LegacyGenerate = lazyComponent('qr-legacy-generate', () => import('./legacy-generate.tsx').then((module) => module.LegacyGenerate))
// Shown only for a chosen code: their code is no part of the page's first load.
const ScanHistory = lazyComponent('qr-scan-history', () => import('./code-extras.tsx').then((module) => module.ScanHistory))
const DeleteDialog = lazyComponent('qr-delete-dialog', () => import('./code-extras.tsx').then((module) => module.DeleteDialog))

const BASE = '/dashboard/qr-codes'

export async function loader({ request, context }: Route.LoaderArgs) {
	const [page, cardReady, healthLinks] = await Promise.all([
		qrCodesLoader({ request, context }),
		cardReadyProfiles({ request, context }),
		healthLinksData({ request, context }),
	])
	return { ...page, cardReady, healthLinks }
}

export async function action({ request, context }: Route.ActionArgs) {
	return (await healthLinkAction({ request, context })) ?? qrCodesAction({ request, context })
}

export default function QrCodes({ loaderData, actionData }: Route.ComponentProps) {
	const { access, codes, profiles, selectedId, look, previewSvg, previewError, history, dialog } = loaderData
	const selected = codes.find((c) => c.id === selectedId) ?? null
	const errors = actionData?.result?.error
		? Object.values(actionData.result.error)
				.flat()
				.filter((e): e is string => Boolean(e))
		: undefined
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 className="text-2xl font-bold">QR Codes</h1>
			{access.isGrandfathered ? <LegacyGenerate profiles={profiles} /> : null}
			{codes.length === 0 && !access.isGrandfathered ? (
				<section aria-labelledby="free-title" className={cardClass('p-5 text-center')}>
					<h2 id="free-title" className="text-xl font-bold">
						Get Your Free Medical QR Code
					</h2>
					<p className="mt-2 text-gray-700">Claim a sticker or card you already hold with its PIN, or ask us to mail you one for free.</p>
					<div className="mt-4 flex flex-wrap justify-center gap-3">
						<a href="#claim-pin" className={buttonClass('primary')}>
							Enter PIN Code
						</a>
						<Link to="/request-qr" className={buttonClass('blue')}>
							Request QR Code
						</Link>
					</div>
				</section>
			) : null}
			{access.claimedPinQrCode ? (
				<p className="rounded-lg bg-blue-50 p-4 text-gray-900">
					Your QR code updates automatically with your medical information: responders always see what is on your profile now.{' '}
					<Link to="/dashboard" className="font-semibold text-blue-800 underline">
						Complete your medical profile
					</Link>
				</p>
			) : null}
			{selected ? (
				<section aria-labelledby="custom-title" className={cardClass('p-5')}>
					<h2 id="custom-title" className="mb-4 text-xl font-bold">
						QR Code Color: {selected.pin ? `sticker ${selected.pin}` : `code #${selected.id}`}
					</h2>
					<Customizer
						key={selected.id}
						look={look}
						previewSvg={previewSvg}
						previewError={previewError}
						hidden={{ codeId: String(selected.id), code: String(selected.id) }}
						submit={{ intent: QR_INTENTS.customize, label: 'Update QR Code' }}
						errors={actionData?.intent === QR_INTENTS.customize ? errors : undefined}
					/>
				</section>
			) : null}
			{actionData && actionData.intent !== QR_INTENTS.customize && actionData.intent !== PIN_INTENT && errors?.length ? (
				<p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-800">
					{errors.join(' ')}
				</p>
			) : null}
			<UnlinkedNotice codes={codes} />
			{codes.length ? (
				<section aria-labelledby="codes-title">
					<div className="mb-3 flex flex-wrap items-center justify-between gap-2">
						<h2 id="codes-title" className="text-xl font-bold">
							Your codes
						</h2>
						<Link to="/request-products" className={buttonClass('secondary')}>
							Order free stickers and cards
						</Link>
					</div>
					<ul className="space-y-4">
						{codes.map((code) => (
							<CodeCard key={code.id} code={code} profiles={profiles} selected={code.id === selectedId} base={BASE} />
						))}
					</ul>
				</section>
			) : null}
			<CardDownloads profiles={profiles} ready={loaderData.cardReady} />
			<HealthLinks cards={loaderData.healthLinks} />
			<section id="claim-pin" aria-labelledby="claim-pin-title" className={cardClass('max-w-xl scroll-mt-4 p-5')}>
				<h2 id="claim-pin-title" className="text-xl font-bold">
					{codes.length ? 'Claim another sticker or card' : 'Already Have a QR Code?'}
				</h2>
				<p className="mb-3 text-gray-700">Enter the PIN from your QR code sticker or card</p>
				<PinForm action={BASE} lastResult={actionData?.intent === PIN_INTENT ? actionData.result : undefined} />
			</section>
			{history ? <ScanHistory history={history} /> : null}
			{dialog === 'delete' && selected ? <DeleteDialog code={selected} base={BASE} /> : null}
		</main>
	)
}

/** Codes whose profile was deleted show the neutral page; the person is told which, and how to fix it. */
function UnlinkedNotice({ codes }: { codes: Route.ComponentProps['loaderData']['codes'] }) {
	const unlinked = codes.filter((c) => !c.medicalProfileId)
	if (!unlinked.length) return null
	return (
		<p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950">
			<strong>{unlinked.length === 1 ? '1 QR code needs a profile' : `${unlinked.length} QR codes need a profile`}:</strong>{' '}
			{unlinked.map((c) => (c.pin ? `sticker ${c.pin}` : `code #${c.id}`)).join(', ')}. Until you link{' '}
			{unlinked.length === 1 ? 'it' : 'each'} to a profile below, scanning shows only that the code is not active.
		</p>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'QR Codes · Hit Me Helpers' }]
