import { Form } from 'react-router'
import { BATCH_DEFAULT_COUNT, INVALID_NUDGE, INVALID_QUANTITY, UNKNOWN_LAYOUT } from '#app/domain/admin/batches/messages.ts'
import { DEFAULT_LAYOUT_ID, LABEL_LAYOUTS, MAX_NUDGE_MM } from '#app/domain/admin/batches/layouts.ts'
import { MAX_BATCH } from '#app/domain/qr/batch.ts'
import { cardClass } from '#app/ui/card.tsx'
import { Field, SelectField, buttonClass } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import { StatCards } from './order-ui.tsx'
import type { Route } from './+types/qr-management'
import { DownloadForm } from './download-form.tsx'
import { qrManagementAction, qrManagementLoader } from './qr-management.server.ts'
import { PostButton } from './post-button.tsx'
import { RequestQueue } from './request-queue.tsx'
import { Section } from './section.tsx'

export const loader = (args: Route.LoaderArgs) => qrManagementLoader(args)
export const action = (args: Route.ActionArgs) => qrManagementAction(args)

const FORMATS = [
	['png', 'ZIP of PNG images and a CSV'],
	['pdf', 'Print-ready PDF on label sheets'],
	['docx', 'Word document (2 per row)'],
	['svg', 'ZIP of SVG files and a CSV'],
] as const

const NUDGES = [
	['nudgeXMm', 'Nudge right (mm)'],
	['nudgeYMm', 'Nudge down (mm)'],
] as const

const small = 'min-h-10 px-3 py-1.5 text-sm'

const FIELD_MESSAGES: Record<string, string> = {
	count: INVALID_QUANTITY,
	format: 'Please choose a file format.',
	layout: UNKNOWN_LAYOUT,
	nudgeXMm: INVALID_NUDGE,
	nudgeYMm: INVALID_NUDGE,
}

export default function QrManagementTab({ loaderData, actionData }: Route.ComponentProps) {
	const { stats, batches, requests, accounts, query, typed, batchError } = loaderData
	const fieldError = (field: string) => (batchError === field ? FIELD_MESSAGES[field] : null)
	return (
		<div className="space-y-6">
			<h2 className="text-2xl font-bold text-gray-900">QR management</h2>
			<StatCards
				stats={
					[
						['Total codes', stats.total],
						['Unclaimed', stats.unclaimed],
						['Claimed', stats.claimed],
						['Pending requests', stats.pendingRequests],
					] as const
				}
			/>

			<Section id="batch-title" title="Generate a batch of sticker codes" className={cardClass('space-y-4 p-4')}>
				<p className="text-gray-800">New unclaimed codes, each with its PIN, ready to print. Up to {MAX_BATCH} at a time.</p>
				<DownloadForm action="/admin/qr-management/batch" label="Batch file" className="grid gap-4 sm:grid-cols-2">
					<Field
						label="Quantity"
						errors={[fieldError('count')]}
						inputProps={{
							name: 'count',
							type: 'number',
							min: 1,
							max: MAX_BATCH,
							step: 1,
							required: true,
							defaultValue: typed.count ?? BATCH_DEFAULT_COUNT,
						}}
					/>
					<SelectField
						label="Format"
						errors={[fieldError('format')]}
						selectProps={{ name: 'format', defaultValue: typed.format ?? 'png' }}
						options={FORMATS.map(([value, label]) => ({ value, label }))}
					/>
					<SelectField
						label="Label layout (PDF)"
						errors={[fieldError('layout')]}
						selectProps={{ name: 'layout', defaultValue: typed.layout ?? DEFAULT_LAYOUT_ID }}
						options={LABEL_LAYOUTS.map((layout) => ({ value: layout.id, label: layout.name }))}
					/>
					<div className="grid grid-cols-2 gap-3">
						{NUDGES.map(([name, label]) => (
							<Field
								key={name}
								label={label}
								errors={[fieldError(name)]}
								inputProps={{
									name,
									type: 'number',
									min: -MAX_NUDGE_MM,
									max: MAX_NUDGE_MM,
									step: 1,
									defaultValue: typed[name] ?? 0,
								}}
							/>
						))}
					</div>
					<div className="flex flex-wrap gap-2 sm:col-span-2">
						<button type="submit" name="intent" value="generate" className={buttonClass('primary')}>
							Generate and Download
						</button>
						<button type="submit" name="intent" value="calibration" formNoValidate className={buttonClass('secondary')}>
							Print Calibration Page
						</button>
					</div>
				</DownloadForm>
			</Section>

			<Section id="batches-title" title="Earlier batches" className={cardClass('space-y-3 p-4')}>
				{batches.length === 0 ? <p className="text-gray-800">No batches yet.</p> : null}
				<ul className="space-y-2">
					{batches.map((batch) => (
						<li key={batch.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-200 pt-2">
							<span>
								Batch {batch.id}: {batch.count} codes as {batch.format.toUpperCase()}, {formatEtTime(batch.createdAt)}
								{batch.createdBy ? ` by ${batch.createdBy}` : ''}; {batch.reprintable} still free to print
							</span>
							{batch.reprintable > 0 ? (
								<a
									href={`/admin/qr-management/batches/${batch.id}`}
									download
									className={buttonClass('secondary', small)}
									aria-label={`Download batch ${batch.id} again`}
								>
									Download Again
								</a>
							) : null}
						</li>
					))}
				</ul>
			</Section>

			<RequestQueue requests={requests} refusal={actionData?.intent === 'fulfil' ? actionData.result : null} />

			<section id="legacy" aria-labelledby="legacy-title" className={cardClass('space-y-3 p-4')}>
				<h3 id="legacy-title" className="text-xl font-bold">
					Legacy access: making one&apos;s own QR codes
				</h3>
				<p className="text-gray-800">Accounts with legacy access may generate their own codes; everyone else claims a printed sticker.</p>
				<Form method="get" className="flex flex-wrap items-end gap-2">
					<Field
						label="Find an account (e-mail or name)"
						inputProps={{ name: 'account', type: 'search', defaultValue: query, maxLength: 200, required: true }}
					/>
					<button type="submit" className={buttonClass('secondary', small)}>
						Search
					</button>
				</Form>
				{accounts ? (
					accounts.length ? (
						<ul className="space-y-2">
							{accounts.map((account) => (
								<li key={account.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-200 pt-2">
									<span className="break-all">
										{account.name ? `${account.name} · ` : ''}
										{account.email}: {account.isGrandfathered ? 'legacy access on' : 'no legacy access'}
									</span>
									<PostButton
										fields={{ intent: 'legacy', userId: account.id, account: query, on: String(!account.isGrandfathered) }}
										buttonClassName={buttonClass('secondary', small)}
									>
										{account.isGrandfathered ? 'Turn Off Self-Generation' : 'Turn On Self-Generation'}
									</PostButton>
								</li>
							))}
						</ul>
					) : (
						<p className="text-gray-800">No account matches “{query}”.</p>
					)
				) : null}
			</section>
		</div>
	)
}
