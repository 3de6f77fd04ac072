import { HELPING_LABELS } from './helping-labels.ts'
import { LANGUAGES, type Language } from './labels.ts'
import type { KeptReport } from './helping-fields.ts'
import { e, helpingForm, shell, titled } from './page.ts'

type Sent = { createdAt: Date; message: string | null; location: string | null; recipients: number; mailedAt: Date | null }

// The time the family's e-mail gives (the foundation's clock, America/New_York), with its zone named in the page's language.
const clocks = Object.fromEntries(
	LANGUAGES.map((lang) => [
		lang,
		new Intl.DateTimeFormat(lang === 'en' ? 'en-US' : lang, {
			hour: 'numeric',
			minute: '2-digit',
			timeZone: 'America/New_York',
			timeZoneName: 'longGeneric',
		}),
	]),
) as Record<Language, Intl.DateTimeFormat>

/**
 * What this responder sent, newest first, the form for an update to the same people (with a refused update as typed),
 * and the way back.
 */
export function renderHelpingSent(lang: Language, token: string, sent: Sent[], gapMinutes: number, kept?: KeptReport) {
	const h = HELPING_LABELS[lang]
	const heading = (report: Sent) =>
		report.mailedAt
			? h.sentTo.replace('{time}', clocks[lang].format(report.mailedAt)).replace('{who}', who(report.recipients))
			: h.held.replace('{m}', String(gapMinutes))
	const who = (recipients: number) => (recipients > 1 ? h.whoWithContacts.replace('{n}', String(recipients - 1)) : h.nobodyExtra)
	const items = sent
		.map(
			(report) =>
				`<div class="sent"><p><b>${e(heading(report))}</b></p><p>${report.message ? e(report.message).replace(/\n/g, '<br>') : e(h.nothingWritten)}</p>${report.location ? `<p>${e(h.location)}: ${e(report.location)}</p>` : ''}</div>`,
		)
		.join('')
	const body = `<section aria-labelledby="s-sent"><h2 id="s-sent">${e(h.sentTitle)}</h2>${items}</section>${helpingForm(lang, token, 'update', kept)}<p><a href="/scan/${e(token)}?lang=${lang}">${e(h.back)}</a></p>`
	return shell(lang, titled(lang, h.sentPageTitle, kept), body, null, true)
}

/** A refused report: alerts off, the sender blocked, or too many; the way back to the page. */
export function renderHelpingRefused(lang: Language, token: string, reason: 'off' | 'blocked' | 'tooMany') {
	const h = HELPING_LABELS[lang]
	return shell(
		lang,
		h.title,
		`<h2>${e(h.title)}</h2><p role="alert">${e(h[reason])}</p><p><a href="/scan/${e(token)}?lang=${lang}">${e(h.back)}</a></p>`,
		null,
	)
}
