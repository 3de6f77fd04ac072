import { Form } from 'react-router'
import { profileLabel } from '#app/domain/profiles/profile-label.ts'
import { cardClass } from '#app/ui/card.tsx'
import { SelectField, StatusButton } from '#app/ui/forms.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { QR_INTENTS } from './intents.ts'

type Profile = { id: number; fullName: string | null; relationshipToUser: string | null }

/** Spec 002's legacy access: an account the owner lets generate its own codes picks a profile and makes one. */
export function LegacyGenerate({ profiles }: { profiles: readonly Profile[] }) {
	return (
		<section aria-labelledby="legacy-title" className={cardClass('p-5')}>
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h2 id="legacy-title" className="text-xl font-bold">
					Generate a QR code
				</h2>
				<span className="rounded-full bg-purple-100 px-3 py-1 text-sm font-semibold text-purple-900">
					Legacy Access - Self-Generation Enabled
				</span>
			</div>
			{profiles.length ? (
				<Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
					<SelectField
						label="Medical profile"
						className="min-w-64 flex-1"
						selectProps={{ name: 'profileId', required: true }}
						options={profiles.map((p) => ({ value: String(p.id), label: profileLabel(p) }))}
					/>
					<OfflineMessage title="Error" description="Failed to generate QR code" />
					<StatusButton type="submit" name="intent" value={QR_INTENTS.generate}>
						Generate Smart QR Code
					</StatusButton>
				</Form>
			) : (
				<p className="mt-2 text-gray-700">No profiles found. Please create a medical profile first.</p>
			)}
		</section>
	)
}
