import { LABELS, LANGUAGES, type Language } from './labels.ts'

// Building an Intl formatter costs far more than using one: one per language, made once.
const dateFormats = Object.fromEntries(
	LANGUAGES.map((lang) => [lang, new Intl.DateTimeFormat(lang === 'en' ? 'en-US' : lang, { dateStyle: 'long', timeZone: 'UTC' })]),
) as Record<Language, Intl.DateTimeFormat>

/** A date (or a stored YYYY-MM-DD day) as the responder page, the cards and the fridge sheet write it. */
export function dateText(lang: Language, date: Date | string) {
	return dateFormats[lang].format(typeof date === 'string' ? new Date(`${date}T00:00:00Z`) : date)
}

/** Whole years from a YYYY-MM-DD date of birth to `today`. */
export function age(dateOfBirth: string, today = new Date()) {
	const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number]
	let years = today.getUTCFullYear() - y
	if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) years--
	return years
}

/** "Age 76 · Born June 15, 1950": what the responder page and the fridge sheet say beside the name. */
export function ageAndBirth(lang: Language, dateOfBirth: string, today = new Date()) {
	const t = LABELS[lang]
	return `${t.ageNow} ${age(dateOfBirth, today)} · ${t.born} ${dateText(lang, dateOfBirth)}`
}
