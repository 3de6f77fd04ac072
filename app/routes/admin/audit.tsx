import { Form, Link } from 'react-router'
import { etDayStart, nextDay } from '#app/domain/analytics/et-time.ts'
import { searchAudit } from '#app/domain/profiles/audit.server.ts'
import { parseAuditFilter } from '#app/domain/profiles/audit-filter.server.ts'
import {
	AUDIT_KIND_LABELS,
	AUDIT_KINDS,
	AUDIT_ROLE_LABELS_FOR_OWNER_AREA,
	auditActionLabel,
	auditActorLabel,
	fieldLabel,
} from '#app/domain/profiles/audit-labels.ts'
import { cardClass } from '#app/ui/card.tsx'
import { DataTable } from '#app/ui/data-table.tsx'
import { buttonClass, Field, options, SelectField } from '#app/ui/forms.tsx'
import { formatEtTime } from '#app/utils/dates.ts'
import type { Route } from './+types/audit'
import { pageUrl } from '#app/utils/http.ts'

export async function loader({ request }: Route.LoaderArgs) {
	const url = pageUrl(request)
	const { filter, errors, asked } = parseAuditFilter(url.searchParams)
	const log = await searchAudit({
		...filter,
		from: filter.from ? etDayStart(filter.from) : undefined,
		to: filter.to ? etDayStart(nextDay(filter.to)) : undefined,
	})
	const older = new URLSearchParams(url.searchParams)
	if (log.nextBefore) older.set('before', String(log.nextBefore))
	return { log, errors, asked, olderUrl: log.nextBefore ? `?${older}` : null, paged: Boolean(filter.before) }
}

const roles = Object.entries(AUDIT_ROLE_LABELS_FOR_OWNER_AREA).map(([value, label]) => ({ value, label }))

/** Who read a profile (scans, the responder page's files) and every change of medical data, with filters. */
export default function AuditTab({ loaderData }: Route.ComponentProps) {
	const { log, errors, asked, olderUrl, paged } = loaderData
	return (
		<section aria-labelledby="audit-title" className="space-y-4">
			<h2 id="audit-title" className="text-2xl font-bold text-gray-900">
				Access record
			</h2>
			<p className="text-gray-800">
				Every read of a medical profile by someone other than its account, and every change of medical data: who, when, from where and which
				fields (never their values). The record cannot be edited or deleted.
			</p>
			<Form method="get" className={cardClass('grid gap-3 p-4 sm:grid-cols-3 lg:grid-cols-6')}>
				<SelectField
					label="Kind"
					placeholder="Reads and changes"
					options={options(AUDIT_KINDS, AUDIT_KIND_LABELS)}
					selectProps={{ name: 'kind', defaultValue: asked.kind ?? '' }}
				/>
				<SelectField label="By" placeholder="Anyone" options={roles} selectProps={{ name: 'role', defaultValue: asked.role ?? '' }} />
				<Field
					label="Account e-mail"
					errors={errors.email}
					inputProps={{ name: 'email', type: 'email', defaultValue: asked.email ?? '' }}
				/>
				<Field
					label="Profile number"
					errors={errors.profileId}
					inputProps={{ name: 'profileId', inputMode: 'numeric', defaultValue: asked.profileId ?? '' }}
				/>
				<Field label="From (ET)" errors={errors.from} inputProps={{ name: 'from', type: 'date', defaultValue: asked.from ?? '' }} />
				<Field label="To (ET)" errors={errors.to} inputProps={{ name: 'to', type: 'date', defaultValue: asked.to ?? '' }} />
				<div className="flex gap-2 sm:col-span-3 lg:col-span-6">
					<button type="submit" className={buttonClass('primary', 'min-h-10 px-4 py-1.5 text-sm')}>
						Filter
					</button>
					<Link to="/admin/audit" className={buttonClass('secondary', 'min-h-10 px-4 py-1.5 text-sm')}>
						Clear filters
					</Link>
				</div>
			</Form>
			<DataTable
				caption={paged ? 'Older entries' : 'Newest entries first'}
				visibleCaption
				rows={log.entries}
				rowKey={(entry) => entry.id}
				empty="Nothing matches these filters."
				columns={[
					{ header: 'When', className: 'whitespace-nowrap', cell: (entry) => formatEtTime(entry.occurredAt) },
					{ header: 'What', cell: (entry) => [auditActionLabel(entry.action), entry.detail].filter(Boolean).join(' · ') },
					{ header: 'Fields', cell: (entry) => entry.fields.map(fieldLabel).join(', ') || '—' },
					{
						header: 'Profile',
						className: 'break-all',
						cell: (entry) => `#${entry.profileId} ${entry.profileName ?? '(deleted)'} · ${entry.ownerEmail ?? 'account deleted'}`,
					},
					{ header: 'By', cell: (entry) => auditActorLabel(entry, AUDIT_ROLE_LABELS_FOR_OWNER_AREA) },
					{ header: 'From', className: 'break-all', cell: (entry) => [entry.ipAddress, entry.place].filter(Boolean).join(' · ') || '—' },
				]}
			/>
			{olderUrl ? (
				<Link to={olderUrl} className="inline-block font-semibold text-blue-800 underline">
					Older entries
				</Link>
			) : null}
		</section>
	)
}
