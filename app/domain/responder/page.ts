import { createHash } from 'node:crypto'
import { profileFlags } from './critical-flags.ts'
import { HELPING_LIMITS, type HelpingField, type KeptReport } from './helping-fields.ts'
import { HELPING_LABELS } from './helping-labels.ts'
import { ageAndBirth, dateText } from './dates.ts'
import { LABELS, LANGUAGE_NAMES, LANGUAGES, type Labels, type Language } from './labels.ts'
import type { ResponderProfile } from './responder.server.ts'
import { escapeMarkup } from '#app/utils/escape.ts'

// The responder page is plain server-built HTML with its CSS inline: one round trip, no script, readable at arm's length.

/** escapeMarkup for a value that may be missing (written as nothing) or a number. */
export const e = (value: unknown) => escapeMarkup(String(value ?? ''))

const CSS = `*{box-sizing:border-box}body{margin:0;font:18px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;background:#fff}
main{max-width:40rem;margin:0 auto;padding:0 12px 32px;overflow-wrap:break-word}header{background:#991b1b;color:#fff;padding:10px 12px}header h1{margin:0;font-size:1.15rem;max-width:40rem;margin:0 auto}
.call{margin:0 auto;max-width:40rem;font-weight:700}nav{font-size:1rem;padding:6px 0;text-align:right}nav a{color:#1e3a8a;margin-left:10px}
h2{font-size:1.2rem;text-transform:uppercase;letter-spacing:.04em;margin:20px 0 6px;border-bottom:2px solid #111;padding-bottom:2px}
.status{border:4px solid #111;padding:10px 12px;margin-top:8px}.status b{display:block;font-size:1.6rem;line-height:1.2}.status.dnr{border-color:#b91c1c;background:#fef2f2}
.flags{background:#111;color:#fff;padding:8px 12px;margin-top:12px}.flags h2{color:#fff;border-color:#fff;margin-top:4px}.flags li{font-weight:700}
ul{margin:0;padding-left:1.1rem}li{margin:4px 0}.sev{font-weight:700}.severe{color:#b91c1c}.muted{color:#374151}
a.tel{display:block;background:#166534;color:#fff;text-decoration:none;font-weight:700;padding:12px;margin:8px 0;border-radius:6px;font-size:1.1rem}
.person{display:flex;gap:12px;align-items:center;margin-top:8px}.person img{flex:none;width:80px;height:80px;object-fit:cover;border:2px solid #111}
.person div{min-width:0}.person p{margin:0}.person .name{font-size:1.5rem;font-weight:800;line-height:1.2}
dl{margin:0;display:grid;grid-template-columns:auto minmax(0,1fr);gap:2px 12px}dt{font-weight:700}dd{margin:0;min-width:0}@media(max-width:30rem){dl{display:block}dd{margin-bottom:8px}}
.blood{font-size:1.6rem;font-weight:800}footer{margin-top:24px;font-size:1rem;color:#374151}a{color:#1e3a8a}
.help{border:3px solid #1e3a8a;padding:10px 12px;margin-top:16px}.help h2{margin-top:4px}.help label{display:block;font-weight:700;margin-top:10px}
.help input[type=text]{width:100%;font:inherit;padding:10px;border:2px solid #374151;border-radius:6px}.help button{display:block;width:100%;margin-top:12px;font:inherit;font-weight:700;padding:12px;border-radius:6px;border:0;background:#1e3a8a;color:#fff;cursor:pointer}
.help button.loc{background:#fff;color:#1e3a8a;border:2px solid #1e3a8a}.help p[role=status]{margin:8px 0 0}.hint{margin:2px 0 4px;color:#374151}
.help .err{margin:4px 0 0;color:#b91c1c;font-weight:700}.help input[aria-invalid=true]{border-color:#b91c1c}.sent{background:#f0fdf4;border:3px solid #166534;padding:10px 12px;margin-top:12px}`

/**
 * With JavaScript, "Add my location" fills the helping form's position fields; the page itself needs no script. Its
 * words come from the form's data attributes, so the script stays one constant, allowed by its hash alone. What it
 * says goes into the form's status line, which the page has from the start (so that it is announced), and the button
 * stays where focus is (pressed again, it finds the position again).
 */
const LOCATE_SCRIPT = `(()=>{const f=document.getElementById('helping');if(!f||!navigator.geolocation)return;const d=f.dataset,b=document.createElement('button'),s=f.querySelector('[role=status]');b.type='button';b.className='loc';b.textContent=d.locate;f.insertBefore(b,s);b.onclick=()=>{s.textContent=d.locating;navigator.geolocation.getCurrentPosition(p=>{for(const[k,v]of[['latitude',p.coords.latitude],['longitude',p.coords.longitude],['accuracy',p.coords.accuracy]])f.elements[k].value=String(v);s.textContent=d.located.replace('{m}',String(Math.round(p.coords.accuracy)))},()=>{s.textContent=d.locateFailed},{enableHighAccuracy:true,timeout:15000})}})()`
export const LOCATE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(LOCATE_SCRIPT).digest('base64')}'`

export function shell(lang: Language, title: string, body: string, token: string | null, script = false) {
	const t = LABELS[lang]
	const switcher = token
		? `<nav aria-label="${e(t.language)}">${LANGUAGES.map((l) => (l === lang ? `<b lang="${l}">${LANGUAGE_NAMES[l]}</b>` : `<a href="/scan/${e(token)}?lang=${l}" lang="${l}" hreflang="${l}">${LANGUAGE_NAMES[l]}</a>`)).join(' ')}</nav>`
		: ''
	return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><title>${e(title)}</title><style>${CSS}</style></head><body><header><h1>${e(t.title)}</h1><p class="call">${e(t.call911)}</p></header><main id="main">${switcher}${body}</main>${script ? `<script>${LOCATE_SCRIPT}</script>` : ''}</body></html>`
}

export function renderMessagePage(lang: Language, kind: 'inactive' | 'unclaimed' | 'notFound', site: string) {
	const t = LABELS[lang]
	const title = t[`${kind}Title`]
	const link = `<a href="${e(site)}">${e(new URL(site).host)}</a>`
	return shell(lang, title, `<h2>${e(title)}</h2><p>${e(t[`${kind}Text`]).replace('{site}', link)}</p>`, null)
}

function list<T>(items: T[], t: Labels, render: (item: T) => string) {
	return items.length ? `<ul>${items.map((item) => `<li>${render(item)}</li>`).join('')}</ul>` : `<p class="muted">${e(t.none)}</p>`
}

export function renderResponderPage(profile: ResponderProfile, lang: Language, token: string, kept?: KeptReport) {
	const t = LABELS[lang]
	const base = `/scan/${e(token)}`
	const dnr = profile.dnrStatus
	const statusText = dnr === 'DNR' ? t.dnr : dnr === 'POLST' ? t.polst : dnr === 'Unknown' ? t.unknownDnr : t.noDnr
	const statusDetails = [
		profile.dnrDocumentDate ? `${e(t.signed)} ${e(dateText(lang, profile.dnrDocumentDate))}` : '',
		profile.dnrOriginalLocation ? `${e(t.originalKept)}: ${e(profile.dnrOriginalLocation)}` : '',
		profile.dnrDocumentKey && (dnr === 'DNR' || dnr === 'POLST') ? `<a href="${base}/dnr">${e(t.viewDocument)}</a>` : '',
	].filter(Boolean)
	const flags = profileFlags(profile)
	const conditions = [...profile.medicalConditions].sort((a, b) => Number(a.status === 'Resolved') - Number(b.status === 'Resolved'))
	const label = (key: string) => (t as Record<string, string>)[key] ?? key
	const name = profile.fullName ?? ([profile.firstName, profile.lastName].filter(Boolean).join(' ') || null)
	const identity: Array<[string, string | null]> = [
		[t.born, profile.dateOfBirth ? dateText(lang, profile.dateOfBirth) : null],
		[t.height, profile.height],
		[t.weight, profile.weight],
		[t.hair, profile.hairColor],
		[t.eyes, profile.eyeColor],
		[t.marks, profile.distinguishingMarks],
	]
	// Identify before acting: who the page is about sits with the code status, above everything else.
	const person = `<section class="person" aria-label="${e(t.person)}">${profile.profilePictureKey ? `<img src="${base}/photo" alt="${e(t.photoOf)} ${e(name ?? '')}" width="80" height="80">` : ''}<div><p class="name">${e(name ?? t.unnamed)}</p>${profile.dateOfBirth ? `<p>${e(ageAndBirth(lang, profile.dateOfBirth))}</p>` : ''}</div></section>`
	const body = [
		person,
		`<section aria-labelledby="s-status"><h2 id="s-status">${e(t.codeStatus)}</h2><div class="status${dnr === 'DNR' || dnr === 'POLST' ? ' dnr' : ''}"><b>${e(statusText)}</b>${statusDetails.map((d) => `<div>${d}</div>`).join('')}</div></section>`,
		flags.length
			? `<section class="flags" aria-labelledby="s-flags"><h2 id="s-flags">${e(t.critical)}</h2><ul>${flags.map((f) => `<li>${e(label(`flag_${f.kind}`))}: ${e(f.detail)}</li>`).join('')}</ul></section>`
			: '',
		`<section aria-labelledby="s-cond"><h2 id="s-cond">${e(t.conditions)}</h2>${list(conditions, t, (c) => `${e(c.condition)} <span class="muted">(${e(label(c.status))})</span>${c.notes ? ` <span class="muted">${e(c.notes)}</span>` : ''}`)}</section>`,
		`<section aria-labelledby="s-all"><h2 id="s-all">${e(t.allergies)}</h2>${list(profile.allergies, t, (a) => `<span class="sev${a.severity === 'Severe' ? ' severe' : ''}">${e(a.allergen)}</span> (${e(label(a.severity))})${a.reaction ? `: ${e(t.reaction)} ${e(a.reaction)}` : ''}`)}</section>`,
		`<section aria-labelledby="s-med"><h2 id="s-med">${e(t.medications)}</h2>${list(
			profile.medications,
			t,
			(m) =>
				`<b>${e(m.name)}</b>${[m.dosage, m.frequency]
					.filter(Boolean)
					.map((x) => ` ${e(x)}`)
					.join(',')}`,
		)}</section>`,
		`<section aria-labelledby="s-con"><h2 id="s-con">${e(t.contacts)}</h2>${profile.emergencyContacts.length ? profile.emergencyContacts.map((c) => `<a class="tel" href="tel:${e(c.phoneNumber.replace(/[^+\d]/g, ''))}">${e(t.call)} ${e(c.name)} (${e(c.relationship)}): ${e(c.phoneNumber)}</a>`).join('') : `<p class="muted">${e(t.none)}</p>`}</section>`,
		profile.helpingAlerts ? helpingForm(lang, token, 'send', kept) : '',
		identity.some(([, v]) => v)
			? `<section aria-labelledby="s-id"><h2 id="s-id">${e(t.identity)}</h2><dl>${identity
					.filter(([, v]) => v)
					.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`)
					.join('')}</dl></section>`
			: '',
		profile.insurancePolicies.length || profile.insurance
			? `<section aria-labelledby="s-ins"><h2 id="s-ins">${e(t.insurance)}</h2>${list(profile.insurancePolicies, t, (p) => `<b>${e(p.provider)}</b>${p.policyNumber ? ` · ${e(t.policy)} ${e(p.policyNumber)}` : ''}${p.groupNumber ? ` · ${e(t.group)} ${e(p.groupNumber)}` : ''}${p.providerPhone ? ` · <a href="tel:${e(p.providerPhone.replace(/[^+\d]/g, ''))}">${e(p.providerPhone)}</a>` : ''}`)}${profile.insurance ? `<p>${e(profile.insurance)}</p>` : ''}</section>`
			: '',
		`<section aria-labelledby="s-blood"><h2 id="s-blood">${e(t.bloodType)}</h2><p class="blood">${e(profile.bloodType ?? '?')}</p></section>`,
		profile.additionalNotes
			? `<section aria-labelledby="s-notes"><h2 id="s-notes">${e(t.notes)}</h2><p>${e(profile.additionalNotes).replace(/\n/g, '<br>')}</p></section>`
			: '',
		// Moved only by the owner confirming or editing the profile, never by a setting or a reminder.
		`<footer>${e(t.lastConfirmed)} ${e(dateText(lang, profile.confirmedAt ?? profile.createdAt))}.</footer>`,
	].join('')
	return shell(lang, titled(lang, `${t.title}${name ? `: ${name}` : ''}`, kept), body, token, profile.helpingAlerts)
}

/**
 * "I'm helping this person now": a plain form to /scan/{token}/helping; the location button is the script's. A refused
 * report comes back in it as typed, each refusal beside its field (focused, without a script, by autofocus).
 */
export function helpingForm(lang: Language, token: string, kind: 'send' | 'update', kept?: KeptReport) {
	const h = HELPING_LABELS[lang]
	const data = `data-locate="${e(h.locate)}" data-locating="${e(h.locating)}" data-located="${e(h.located)}" data-locate-failed="${e(h.locateFailed)}"`
	const firstRefused = (Object.keys(HELPING_LIMITS) as HelpingField[]).find((field) => kept?.tooLong[field] !== undefined)
	const field = (name: HelpingField, label: string) => {
		const id = `h-${name}`
		const length = kept?.tooLong[name]
		const limit = String(HELPING_LIMITS[name])
		const error =
			length === undefined ? '' : `<p class="err" id="${id}-error">${e(h.tooLong.replace('{k}', String(length)).replace('{n}', limit))}</p>`
		const described = length === undefined ? `${id}-limit` : `${id}-limit ${id}-error`
		return `<label for="${id}">${e(label)}</label><p class="hint" id="${id}-limit">${e(h.limit.replace('{n}', limit))}</p><input type="text" id="${id}" name="${name}" maxlength="${limit}" autocomplete="off" aria-describedby="${described}"${length === undefined ? '' : ' aria-invalid="true"'}${name === firstRefused ? ' autofocus' : ''}${kept?.values[name] ? ` value="${e(kept.values[name])}"` : ''}>${error}`
	}
	const status = kept?.locationDropped ? e(h.locateFailed) : ''
	return `<section class="help" aria-labelledby="s-help"><h2 id="s-help">${e(kind === 'send' ? h.title : h.sendUpdate)}</h2><p>${e(kind === 'send' ? h.intro : h.updateIntro)}</p><form id="helping" method="post" action="/scan/${e(token)}/helping" ${data}><input type="hidden" name="lang" value="${lang}">${field('where', h.where)}${field('hospital', h.hospital)}<input type="hidden" name="latitude"><input type="hidden" name="longitude"><input type="hidden" name="accuracy"><p role="status">${status}</p><button type="submit">${e(kind === 'send' ? h.send : h.sendUpdate)}</button></form></section>`
}

/** The page's title, marked when a refused report is shown again. */
export const titled = (lang: Language, title: string, kept?: KeptReport) => (kept ? `${HELPING_LABELS[lang].error}: ${title}` : title)
