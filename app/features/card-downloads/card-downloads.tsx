import { Link } from 'react-router'
import { CARD_LANGUAGES, LOCK_SCREEN_SIZES, NO_ACTIVE_CODE, PAPER_OPTIONS, SCANNING_OFF, sizeName } from '#app/domain/cards/options.ts'
import { profileLabel } from '#app/domain/profiles/profile-label.ts'
import { cardClass } from '#app/ui/card.tsx'
import { cx } from '#app/ui/cx.ts'
import { buttonClass, inputClass, SelectField } from '#app/ui/forms.tsx'

type Profile = { id: number; fullName: string | null; relationshipToUser: string | null; isScannable: boolean }

const SIZE_OPTIONS = LOCK_SCREEN_SIZES.map((s) => ({ value: String(s.width), label: `${sizeName(s)} (${s.devices})` }))

/**
 * The wallet card (PDF), fridge sheet (PDF) and lock-screen image (PNG) of each profile given: plain GET forms to the download endpoints,
 * which answer with the file, so they work the same with JavaScript off. A profile without a usable QR code is sent to
 * the QR Codes tab instead.
 */
export function CardDownloads({
	profiles,
	ready,
	className,
}: {
	profiles: readonly Profile[]
	ready: readonly number[]
	className?: string
}) {
	if (profiles.length === 0) return null
	return (
		<section aria-labelledby="card-downloads-title" className={cardClass(cx('p-5', className))}>
			<h2 id="card-downloads-title" className="text-xl font-bold">
				Wallet card, fridge sheet and lock screen
			</h2>
			<p className="mt-1 text-gray-700">
				A card to print, cut out and fold for a wallet, a large-type sheet for the fridge, and an image for a phone’s lock screen: the
				critical facts and the QR code, made from the profile as it is when you download them. Download them again after a change.
			</p>
			<p className="mt-1 text-gray-700">
				The fridge sheet holds everything a responder sees when they scan the code. Keep it in an envelope on or in the fridge, and cut off
				the label at its foot for the envelope or the front door.
			</p>
			<div className="mt-4 space-y-5">
				{profiles.map((profile) => (
					<ProfileDownloads key={profile.id} profile={profile} ready={ready.includes(profile.id)} titled={profiles.length > 1} />
				))}
			</div>
		</section>
	)
}

function ProfileDownloads({ profile, ready, titled }: { profile: Profile; ready: boolean; titled: boolean }) {
	const base = `/api/medical-profiles/${profile.id}`
	const name = profileLabel(profile)
	const id = (field: string) => `card-${field}-${profile.id}`
	return (
		<div>
			{titled ? (
				<h3 id={id('title')} className="mb-2 font-semibold">
					{name}
				</h3>
			) : null}
			{!profile.isScannable ? (
				<p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950">
					{SCANNING_OFF}{' '}
					<Link to={`/medical-info?profile=${profile.id}`} className="font-semibold underline">
						Go to Medical Information
					</Link>
				</p>
			) : ready ? (
				<div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
					<form method="get" action={`${base}/wallet-card.pdf`} className="flex flex-col gap-3">
						<LanguageSelect id={id('lang')} label="Card language" />
						<button type="submit" className={buttonClass('primary', 'mt-auto')} aria-describedby={titled ? id('title') : undefined}>
							Download wallet card (PDF)
						</button>
					</form>
					<form method="get" action={`${base}/fridge-sheet.pdf`} className="flex flex-col gap-3">
						<LanguageSelect id={id('sheet-lang')} label="Sheet language" />
						<SelectField label="Paper size" selectProps={{ id: id('paper'), name: 'paper' }} options={PAPER_OPTIONS} />
						<button type="submit" className={buttonClass('primary', 'mt-auto')} aria-describedby={titled ? id('title') : undefined}>
							Download fridge sheet (PDF)
						</button>
					</form>
					<form method="get" action={`${base}/lock-screen.png`} className="flex flex-col gap-3">
						<SelectField label="Screen size" selectProps={{ id: id('size'), name: 'w' }} options={SIZE_OPTIONS} />
						<LanguageSelect id={id('image-lang')} label="Image language" />
						<button type="submit" className={buttonClass('primary', 'mt-auto')} aria-describedby={titled ? id('title') : undefined}>
							Download lock-screen image
						</button>
					</form>
				</div>
			) : (
				<p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950">
					{NO_ACTIVE_CODE}{' '}
					<Link to="/dashboard/qr-codes" className="font-semibold underline">
						Go to QR Codes
					</Link>
				</p>
			)}
		</div>
	)
}

/** Each language's name in that language, marked as such for screen readers. */
function LanguageSelect({ id, label }: { id: string; label: string }) {
	return (
		<div>
			<label htmlFor={id} className="mb-1 block text-sm font-semibold text-gray-800">
				{label}
			</label>
			<select id={id} name="lang" defaultValue="en" className={inputClass}>
				{CARD_LANGUAGES.map((language) => (
					<option key={language.value} value={language.value} lang={language.value}>
						{language.label}
					</option>
				))}
			</select>
		</div>
	)
}
