import { getTextareaProps } from '@conform-to/react'
import { Form, Link } from 'react-router'
import { ACCEPT, formatMegabytes } from '#app/domain/uploads/file-type.ts'
import { DNR_LABELS, DNR_STATUSES, DnrSchema, NotesSchema } from '#app/domain/profiles/schemas.ts'
import { buttonClass, ErrorList, Field, options, StatusButton, TextareaField } from '#app/ui/forms.tsx'
import { Modal } from '#app/ui/modal.tsx'
import { DialogButtons } from './section-forms.tsx'
import { INTENTS } from './intents.ts'
import { getFormProps, HiddenIds, useIntentPending, useScreen, useSectionForm } from './screen-context.tsx'
import { AskFirst, AskLink, DeleteLink, EmptyState, ListSection, SectionCard, SectionRow } from './section-card.tsx'
import { OfflineMessage } from '#app/ui/offline-message.tsx'
import { ChoiceField, TextField } from '#app/ui/text-field.tsx'
import { cardClass } from '#app/ui/card.tsx'
import { formatDate } from '#app/utils/dates.ts'

export function DnrSection() {
	const { profile, dialog, deleting, canEdit } = useScreen()
	const status = profile?.dnrStatus as keyof typeof DNR_LABELS | null | undefined
	return (
		<SectionCard id="dnr" title="DNR Status" addLabel={status ? 'Change DNR Status' : 'Set DNR Status'} addDialog="dnr">
			{status ? (
				<div className="flex flex-wrap items-start justify-between gap-3">
					<div>
						<p className="text-lg font-semibold">{DNR_LABELS[status] ?? status}</p>
						{profile?.dnrDocumentUrl ? (
							<p>
								Document:{' '}
								<a href={profile.dnrDocumentUrl} className="text-blue-800 underline">
									{profile.dnrDocumentName}
								</a>
								{profile.dnrDocumentDate ? <span className="text-gray-700"> · signed {formatDate(profile.dnrDocumentDate)}</span> : null}
							</p>
						) : null}
						{profile?.dnrOriginalLocation ? <p className="text-gray-700">Original kept: {profile.dnrOriginalLocation}</p> : null}
					</div>
					{canEdit ? <AskLink what="dnr" label="Clear DNR Status" /> : null}
				</div>
			) : (
				<EmptyState>No DNR status recorded yet.</EmptyState>
			)}
			{dialog === 'dnr' && canEdit ? <DnrDialog /> : null}
			{deleting === 'dnr' && status && canEdit ? (
				<AskFirst what="dnr" title="Clear DNR Status?" intent={INTENTS.clearDnr} confirmLabel="Clear DNR Status" pendingLabel="Clearing...">
					<p>Responders who scan this profile’s QR code will no longer see its DNR status or document. This cannot be undone.</p>
				</AskFirst>
			) : null}
		</SectionCard>
	)
}

function DnrDialog() {
	const { href, profile, failure } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.saveDnr, DnrSchema, {
		defaultValue: { ...profile, dnrStatus: profile?.dnrStatus ?? 'None' },
	})
	const pending = useIntentPending(INTENTS.saveDnr)
	const documentErrors = failure?.intent === INTENTS.saveDnr ? failure.result.error?.document : undefined
	return (
		<Modal title="DNR Status" closeHref={href({}, 'dnr')} start="field" showsErrors={form.status === 'error' || Boolean(documentErrors)}>
			<Form method="post" encType="multipart/form-data" preventScrollReset {...getFormProps(form)} className="space-y-4">
				<HiddenIds />
				<ChoiceField field={fields.dnrStatus} label="Status" options={options(DNR_STATUSES, DNR_LABELS)} />
				<Field
					label={
						profile?.dnrDocumentUrl
							? `Replace document (on file: ${profile.dnrDocumentName})`
							: 'DNR or POLST document (required for DNR and POLST)'
					}
					errors={documentErrors}
					inputProps={{ type: 'file', name: 'document', accept: ACCEPT.documents, className: 'py-1.5' }}
				/>
				<TextField field={fields.dnrDocumentDate} label="Date the document was signed" type="date" />
				<TextField
					field={fields.dnrOriginalLocation}
					label="Where the original is kept"
					hint="For example: on the refrigerator, in the bedside drawer"
				/>
				<ErrorList id={form.errorId} errors={form.errors} alert />
				<OfflineMessage title="Upload Failed" description="Failed to upload document. Please try again." />
				<DialogButtons intent={INTENTS.saveDnr} label="Save DNR Status" pending={pending} cancelHref={href({}, 'dnr')} />
			</Form>
		</Modal>
	)
}

export function DocumentsSection() {
	const { profile, failure } = useScreen()
	const pending = useIntentPending(INTENTS.uploadDocument)
	const errors = failure?.intent === INTENTS.uploadDocument ? failure.result.error?.document : undefined
	if (!profile)
		return (
			<section id="documents" aria-labelledby="documents-title" className={cardClass('p-5')}>
				<h2 id="documents-title" className="mb-3 text-xl font-bold">
					Medical Documents
				</h2>
				<p className="text-gray-700">Please save your medical profile first to upload documents.</p>
			</section>
		)
	return (
		<ListSection
			id="documents"
			rows={(p) => p.medicalDocuments}
			name={(d) => `document ${d.fileName}`}
			deleteIntent={INTENTS.deleteDocument}
			footer={
				<Form method="post" encType="multipart/form-data" preventScrollReset className="mt-4 flex flex-wrap items-end gap-3">
					<HiddenIds />
					<Field
						label="Upload a document (PDF, JPG, PNG, DOC or DOCX, up to 10 MB)"
						errors={errors}
						className="min-w-64 flex-1"
						inputProps={{ type: 'file', name: 'document', accept: ACCEPT.documents, required: true, className: 'py-1.5' }}
					/>
					<OfflineMessage title="Upload Failed" description="Failed to upload document" />
					<StatusButton type="submit" name="intent" value={INTENTS.uploadDocument} pending={pending} pendingLabel="Uploading...">
						Upload Document
					</StatusButton>
				</Form>
			}
		>
			{(d) => (
				<SectionRow actions={<DeleteLink />}>
					<a href={d.fileUrl} className="font-semibold text-blue-800 underline">
						{d.fileName}
					</a>
					<p className="text-sm text-gray-700">
						{d.fileType.toUpperCase()} · {formatMegabytes(d.fileSize)}
					</p>
				</SectionRow>
			)}
		</ListSection>
	)
}

export function NotesSection() {
	const { profile, href, edit, deleting, canEdit } = useScreen()
	const [form, fields] = useSectionForm(INTENTS.saveNotes, NotesSchema, { defaultValue: profile ?? undefined })
	const pending = useIntentPending(INTENTS.saveNotes)
	const editing = canEdit && (edit === 'notes' || form.status === 'error')
	return (
		<SectionCard id="notes" title="Additional Medical Notes">
			{editing ? (
				<Form method="post" preventScrollReset {...getFormProps(form)} className="space-y-3">
					<HiddenIds />
					<TextareaField
						label="Notes for responders"
						errors={fields.additionalNotes.errors}
						textareaProps={getTextareaProps(fields.additionalNotes)}
					/>
					<ErrorList id={form.errorId} errors={form.errors} alert />
					<div className="flex gap-2">
						<StatusButton type="submit" name="intent" value={INTENTS.saveNotes} pending={pending} pendingLabel="Saving...">
							Save Notes
						</StatusButton>
						<Link to={href({}, 'notes')} preventScrollReset className={buttonClass('secondary')}>
							Cancel
						</Link>
					</div>
				</Form>
			) : (
				<div className="flex flex-wrap items-start justify-between gap-3">
					{profile?.additionalNotes ? (
						<p className="whitespace-pre-line text-gray-900">{profile.additionalNotes}</p>
					) : (
						<EmptyState>No additional notes recorded yet.</EmptyState>
					)}
					{canEdit ? (
						<div className="flex gap-2">
							<Link
								to={href({ edit: 'notes' }, 'notes')}
								preventScrollReset
								className={buttonClass('secondary', 'min-h-9 px-3 py-1 text-sm')}
							>
								{profile?.additionalNotes ? 'Edit Notes' : 'Add Notes'}
							</Link>
							{profile?.additionalNotes ? <AskLink what="notes" label="Clear Notes" /> : null}
						</div>
					) : null}
				</div>
			)}
			{deleting === 'notes' && profile?.additionalNotes && canEdit ? (
				<AskFirst what="notes" title="Clear Notes?" intent={INTENTS.clearNotes} confirmLabel="Clear Notes" pendingLabel="Clearing...">
					<p>Responders who scan this profile’s QR code will no longer see these notes. This cannot be undone.</p>
				</AskFirst>
			) : null}
		</SectionCard>
	)
}
