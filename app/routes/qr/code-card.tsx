import { Form, Link } from 'react-router'
import { profileLabel } from '#app/domain/profiles/profile-label.ts'
import { buttonClass, SelectField, StatusButton } from '#app/ui/forms.tsx'
import { cx } from '#app/ui/cx.ts'
import type { QrCodesData } from './qr-codes.server.ts'
import { customiseId, deleteOpener, QR_INTENTS } from './intents.ts'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { formatDate } from '#app/utils/dates.ts'

type Code = QrCodesData['codes'][number]

const small = 'min-h-9 px-3 py-1 text-sm'

export function CodeCard({
	code,
	profiles,
	selected,
	base,
	autoFocus,
}: {
	code: Code
	profiles: QrCodesData['profiles']
	selected: boolean
	base: string
	/** Its first control has the page's first focus (the card above it was just deleted). */
	autoFocus?: boolean
}) {
	const shape = code.customization.circular ? 'circular' : 'square'
	return (
		<li
			className={cx('rounded-xl border bg-white p-4 shadow-sm', selected ? 'border-brand-700 ring-2 ring-brand-700/30' : 'border-gray-300')}
		>
			<div className="flex flex-wrap gap-4">
				<img
					src={`/api/qr-codes/${code.id}/image?size=200&v=${code.updatedAt.valueOf()}`}
					alt={`QR code ${code.pin ?? code.id}`}
					width={120}
					height={120}
					className="size-30 rounded border border-gray-200"
				/>
				<div className="min-w-48 flex-1 space-y-1">
					<p className="font-semibold">
						{code.pin ? `Sticker ${code.pin}` : `QR code #${code.id}`}{' '}
						<span className={cx('rounded px-2 text-sm', code.isActive ? 'bg-green-100 text-green-900' : 'bg-gray-200 text-gray-800')}>
							{code.isActive ? 'Active' : 'Inactive'}
						</span>
					</p>
					<p className="text-sm text-gray-700">
						Type {code.type} · access {code.accessLevel} · expires {code.expiresAt ? formatDate(code.expiresAt) : 'Never'}
					</p>
					<p className="text-sm break-all">
						<a href={`/qr/${code.token}`} className="text-blue-800 underline">
							{code.scanUrl.replace('/scan/', '/qr/')}
						</a>
					</p>
					{code.medicalProfileId ? (
						<p className="text-sm text-gray-700">
							Shows: {profileLabel({ id: code.medicalProfileId, fullName: code.profileName, relationshipToUser: code.relationshipToUser })}{' '}
							· scanned {code.scanCount} {code.scanCount === 1 ? 'time' : 'times'}
						</p>
					) : (
						<p className="rounded bg-amber-50 px-2 py-1 text-sm font-semibold text-amber-900">
							Needs a profile: scanning it shows that the code is not active until you link it to a profile below.
						</p>
					)}
				</div>
			</div>
			<div className="mt-3 flex flex-wrap gap-2">
				<Link
					id={customiseId(code.id)}
					autoFocus={autoFocus}
					to={`${base}?code=${code.id}`}
					preventScrollReset
					className={buttonClass('secondary', small)}
					aria-label={`Customise QR code ${code.pin ?? code.id}`}
				>
					Customise
				</Link>
				<a href={`/api/qr-codes/${code.id}/download?shape=${shape}`} className={buttonClass('secondary', small)} download>
					Download PNG
				</a>
				<a href={`/api/qr-codes/${code.id}/download?shape=circular`} className={buttonClass('secondary', small)} download>
					Circular PNG
				</a>
				<a href={`/api/qr-codes/${code.id}/download?format=svg&shape=${shape}`} className={buttonClass('secondary', small)} download>
					SVG
				</a>
				<Link to={`${base}/${code.id}/print`} className={buttonClass('secondary', small)}>
					Print
				</Link>
				<Link to={`${base}?code=${code.id}&history=${code.id}`} preventScrollReset className={buttonClass('secondary', small)}>
					Scan history
				</Link>
				<Form method="post" preventScrollReset>
					<input type="hidden" name="codeId" value={code.id} />
					<OfflineMessage title="Error" description="Failed to toggle QR code status" />
					<StatusButton type="submit" name="intent" value={QR_INTENTS.toggle} variant="secondary" className={small}>
						{code.isActive ? 'Deactivate' : 'Activate'}
					</StatusButton>
				</Form>
				<Link
					id={deleteOpener(code.id)}
					to={`${base}?code=${code.id}&dialog=delete`}
					preventScrollReset
					className={buttonClass('secondary', cx(small, 'border-red-700 text-red-800'))}
				>
					Delete
				</Link>
			</div>
			{profiles.length > 1 || (!code.medicalProfileId && profiles.length) ? (
				<Form method="post" preventScrollReset className="mt-3 flex flex-wrap items-end gap-2">
					<input type="hidden" name="codeId" value={code.id} />
					<SelectField
						label="Profile this code shows"
						className="min-w-56"
						selectProps={{ name: 'profileId', required: true, defaultValue: String(code.medicalProfileId ?? '') }}
						placeholder="Choose a profile"
						options={profiles.map((p) => ({ value: String(p.id), label: profileLabel(p) }))}
					/>
					<StatusButton type="submit" name="intent" value={QR_INTENTS.assign} variant="secondary">
						Link profile
					</StatusButton>
				</Form>
			) : null}
		</li>
	)
}
