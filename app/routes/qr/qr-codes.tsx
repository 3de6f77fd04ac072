import { Link } from 'react-router'
import { buttonClass } from '#app/ui/forms.tsx'
import { lazyComponent } from '#app/utils/lazy-component.tsx'
import type { Route } from './+types/qr-codes'
import { CodeCard } from './code-card.tsx'
import { customiseId, QR_INTENTS } from './intents.ts'
import { PinForm } from '../../features/pin-claim/pin-form-lazy.ts'
import { PIN_INTENT } from '#app/domain/claims/pin-intent.ts'
import { qrCodesAction, qrCodesLoader } from './qr-codes.server.ts'
import { cardClass } from '#app/ui/card.tsx'
import { CardDownloads } from '../../features/card-downloads/card-downloads-lazy.ts'
import { cardReadyProfiles } from '../../features/card-downloads/card-downloads.server.ts'
import { HEALTH_LINK_INTENTS } from '#app/domain/sharing/options.ts'
import { HealthLinks } from './health-links-lazy.ts'
import { healthLinksData } from './health-links.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { useFocusAfterChange } from '#app/ui/confirm-dialog.tsx'

// The look editor (live preview, colour and text checks) loads after the page; until then Preview and Save post plainly.
const Customizer = lazyComponent('qr-customizer', () => import('./customizer.tsx').then((module) => module.Customizer))
// Shown only to accounts that may generate codes themselves: its code is no part of the page's first load.
const LegacyGenerate = lazyComponent('qr-legacy-generate', () => import('./legacy-generate.tsx').then((module) => module.LegacyGenerate))
// Shown only to some (a person without codes, one with a code that lost its profile): no part of the page's first load.
const FreeCodeCard = lazyComponent('qr-free-card', () => import('./code-notices.tsx').then((module) => module.FreeCodeCard))
const UnlinkedNotice = lazyComponent('qr-unlinked', () => import('./code-notices.tsx').then((module) => module.UnlinkedNotice))
// Shown only for a chosen code (its scan history, the delete dialog): their code is no part of the page's first load.
const CodeExtras = lazyComponent('qr-code-extras', () => import('./code-extras.tsx').then((module) => module.CodeExtras))

const BASE = '/dashboard/qr-codes'
/** Forms that show a refusal beside their own fields; the tab's banner shows the others'. */
const OWN_MESSAGES: readonly string[] = [QR_INTENTS.customize, PIN_INTENT, HEALTH_LINK_INTENTS.create]

export async function loader({ request, context }: Route.LoaderArgs) {
	const [page, cardReady, healthLinks] = await Promise.all([
		qrCodesLoader({ request, context }),
		cardReadyProfiles({ request, context }),
		healthLinksData({ request, context }),
	])
	return { ...page, cardReady, healthLinks }
}

export async function action({ request, context }: Route.ActionArgs) {
	return qrCodesAction({ request, context })
}

export default function QrCodes({ loaderData, actionData }: Route.ComponentProps) {
	const { access, codes, profiles, selectedId, look, previewSvg, previewError, history, dialog, deleted } = loaderData
	const selected = codes.find((c) => c.id === selectedId) ?? null
	// A deleted code's Delete went with it: focus goes to the next card's first control (newest first, so the first
	// with a lower id), else the list's heading, else the page's.
	const next = deleted ? codes.find((c) => c.id < deleted) : undefined
	const afterDelete = next ? customiseId(next.id) : codes.length ? 'codes-title' : 'qr-codes-title'
	const { serverFocus } = useFocusAfterChange(deleted !== null, () => document.getElementById(afterDelete))
	const errors = actionData?.result?.error
		? Object.values(actionData.result.error)
				.flat()
				.filter((e): e is string => Boolean(e))
		: undefined
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
			<h1 id="qr-codes-title" tabIndex={-1} autoFocus={serverFocus && afterDelete === 'qr-codes-title'} className="text-2xl font-bold">
				QR Codes
			</h1>
			{access.isGrandfathered ? <LegacyGenerate profiles={profiles} /> : null}
			{codes.length === 0 && !access.isGrandfathered ? <FreeCodeCard /> : null}
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
						errors={actionData?.intent === QR_INTENTS.customize ? actionData.result?.error : undefined}
					/>
				</section>
			) : null}
			{actionData && !OWN_MESSAGES.includes(actionData.intent) && errors?.length ? (
				<p role="alert" className="rounded-lg bg-red-50 p-3 font-semibold text-red-800">
					{errors.join(' ')}
				</p>
			) : null}
			{codes.some((c) => !c.medicalProfileId) ? <UnlinkedNotice codes={codes} /> : null}
			{codes.length ? (
				<section aria-labelledby="codes-title">
					<div className="mb-3 flex flex-wrap items-center justify-between gap-2">
						<h2 id="codes-title" tabIndex={-1} autoFocus={serverFocus && afterDelete === 'codes-title'} className="text-xl font-bold">
							Your codes
						</h2>
						<Link to="/request-products" className={buttonClass('secondary')}>
							Order free stickers and cards
						</Link>
					</div>
					<ul className="space-y-4">
						{codes.map((code) => (
							<CodeCard
								key={code.id}
								code={code}
								profiles={profiles}
								selected={code.id === selectedId}
								base={BASE}
								autoFocus={serverFocus && code === next}
							/>
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
			{history || (dialog === 'delete' && selected) ? (
				<CodeExtras history={history} deleting={dialog === 'delete' ? selected : null} base={BASE} />
			) : null}
		</main>
	)
}

export const meta: Route.MetaFunction = () => pageMeta('QR Codes')
