import { Link } from 'react-router'
import { requireUser } from '#app/middleware/permissions.server.ts'
import { accountAudit } from '#app/domain/profiles/audit.server.ts'
import { AUDIT_KIND_LABELS, AUDIT_KINDS, auditActionLabel, auditActorLabel, fieldLabel } from '#app/domain/profiles/audit-labels.ts'
import { DataTable } from '#app/ui/data-table.tsx'
import { cx } from '#app/ui/cx.ts'
import { formatEtTime } from '#app/utils/dates.ts'
import { pageUrl } from '#app/utils/http.ts'
import type { Route } from './+types/access-record'
import { pageMeta } from '#app/utils/meta.ts'

const KIND_FILTERS = [{ value: '', label: 'Everything' }, ...AUDIT_KINDS.map((kind) => ({ value: kind, label: AUDIT_KIND_LABELS[kind] }))]

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = await requireUser({ request, context })
	const params = pageUrl(request).searchParams
	const kind = AUDIT_KINDS.find((k) => k === params.get('kind'))
	const before = Number(params.get('before')) || undefined
	const log = await accountAudit(user.id, { kind, before: before && before > 0 && Number.isSafeInteger(before) ? before : undefined })
	const older = new URLSearchParams({ ...(kind ? { kind } : {}), ...(log.nextBefore ? { before: String(log.nextBefore) } : {}) })
	return { entries: log.entries, kind: kind ?? '', olderUrl: log.nextBefore ? `?${older}` : null }
}

export const meta: Route.MetaFunction = () => pageMeta('Who has seen your information')

/** The account's own record: every scan that showed one of its profiles, and every change made to them. */
export default function AccessRecord({ loaderData }: Route.ComponentProps) {
	const { entries, kind, olderUrl } = loaderData
	return (
		<main id="main" className="mx-auto max-w-4xl space-y-4 px-4 py-6">
			<p>
				<Link to="/dashboard/profile" className="font-semibold text-blue-800 underline">
					Back to your profile
				</Link>
			</p>
			<h1 className="text-2xl font-bold text-gray-900">Who has seen your information</h1>
			<p className="text-gray-800">
				Each time someone opens the responder page of one of your codes (or its photo or DNR document), what a caregiver you shared a
				profile with opens, and each change to your profiles, with who made it, is recorded here. Where a scan came from shows only as a
				town or region, when the network says so.
			</p>
			<nav aria-label="Show">
				<ul className="flex flex-wrap gap-2">
					{KIND_FILTERS.map((filter) => (
						<li key={filter.value}>
							<Link
								to={filter.value ? `?kind=${filter.value}` : '?'}
								aria-current={filter.value === kind ? 'page' : undefined}
								className={cx(
									'inline-block rounded-full border px-3 py-1 text-sm font-semibold',
									filter.value === kind ? 'border-gray-900 bg-gray-900 text-white' : 'border-gray-400 text-gray-900',
								)}
							>
								{filter.label}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			<DataTable
				caption="Reads and changes, newest first"
				rows={entries}
				rowKey={(entry) => entry.id}
				empty={kind === 'read' ? 'No one else has opened your information yet.' : 'Nothing recorded yet.'}
				columns={[
					{ header: 'When', className: 'whitespace-nowrap', cell: (entry) => formatEtTime(entry.occurredAt) },
					{ header: 'Profile', cell: (entry) => entry.profileName ?? 'A deleted profile' },
					{ header: 'What', cell: (entry) => [auditActionLabel(entry.action), entry.detail].filter(Boolean).join(' · ') },
					{ header: 'Fields', cell: (entry) => entry.fields.map(fieldLabel).join(', ') || '—' },
					{ header: 'By', cell: (entry) => auditActorLabel(entry) },
					{ header: 'Where', cell: (entry) => entry.place ?? '—' },
				]}
			/>
			{olderUrl ? (
				<Link to={olderUrl} className="inline-block font-semibold text-blue-800 underline">
					Older entries
				</Link>
			) : null}
		</main>
	)
}
