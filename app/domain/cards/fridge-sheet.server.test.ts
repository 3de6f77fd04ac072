import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { CARD_SCAN_URL, fullSheetProfile, manyAllergies, manyMedications, overlapping, readPdf, type Word } from '#tests/cards.ts'
import { decodePdfBox } from '#tests/zbar-all.ts'
import { sheetFacts, type SheetProfile } from './facts.ts'
import { MARGIN, PAPER_SIZES, renderFridgeSheetPdf, sheetQrBox } from './fridge-sheet.server.ts'
import type { Paper } from './options.ts'

const TODAY = new Date('2026-12-01T12:00:00Z')
/** The height poppler gives a word set at `size` in DejaVu (its ascent plus its descent). */
const wordHeight = (size: number) => size * (0.928 + 0.236)

async function render(
	profile = fullSheetProfile(),
	lang: 'en' | 'es' | 'fr' = 'en',
	paper: Paper = 'letter',
	photo: Uint8Array | null = null,
) {
	const pdf = await renderFridgeSheetPdf({ facts: sheetFacts(profile, lang, TODAY), scanUrl: CARD_SCAN_URL, photo, paper })
	return { pdf, read: await readPdf(pdf) }
}

/** Words outside the page's margins. */
function outside(words: Word[], paper: Paper) {
	const { width, height } = PAPER_SIZES[paper]
	return words
		.filter((w) => w.xMin < MARGIN - 3 || w.xMax > width - MARGIN + 0.5 || w.yMin < MARGIN || w.yMax > height - MARGIN + 0.5)
		.map((w) => `${w.text} (${w.xMin.toFixed(1)}, ${w.yMin.toFixed(1)})`)
}

/** What is printed below the cut line (the scissors mark it): the envelope label, and nothing else. */
function belowCut(words: Word[]) {
	const scissors = words.find((w) => w.text === '✂')!
	return words
		.filter((w) => w.yMin > scissors.yMax)
		.map((w) => w.text)
		.join(' ')
}

/** The page's words a column at a time (left half, then right half), each top to bottom: the lists in reading order. */
function columnText(words: Word[], paper: Paper) {
	const middle = PAPER_SIZES[paper].width / 2
	const ordered = (half: Word[]) => half.sort((a, b) => a.yMin - b.yMin || a.xMin - b.xMin).map((w) => w.text)
	return [...ordered(words.filter((w) => w.xMin < middle)), ...ordered(words.filter((w) => w.xMin >= middle))].join(' ')
}

/** Every list's "+N more" line, by the heading it follows. */
function cutShort(text: string, headings: string[]) {
	return Object.fromEntries(
		headings.map((heading, i) => {
			const from = text.indexOf(heading)
			const to = headings[i + 1] ? text.indexOf(headings[i + 1]!) : text.length
			const more = /\+(\d+) (?:more|más|de plus)/.exec(text.slice(from, to > from ? to : text.length))
			return [heading, more ? Number(more[1]) : 0]
		}),
	)
}

/** The QR code as a phone sees it, read from the printed page. */
async function qrOnPage(pdf: Uint8Array, paper: Paper) {
	return decodePdfBox(pdf, sheetQrBox(paper), { marginPt: 12, dpi: 200 })
}

describe('the fridge sheet PDF', () => {
	test('one Letter page with everything the responder page shows, the QR code caption, the date and the envelope label', async () => {
		const { read } = await render()
		expect(read.pages).toBe(1)
		expect(read.pageSize).toMatch(/^612 x 792 pts \(letter\)/)
		for (const words of [
			'EMERGENCY MEDICAL INFORMATION',
			'In an emergency, call 911.',
			'Maria Santos',
			'Age 76 · Born June 15, 1950',
			'Blood type: AB-',
			'DNR: Do Not Resuscitate',
			'Signed February 1, 2024',
			'Original kept: On the refrigerator',
			'CRITICAL',
			'Anticoagulant / blood thinner: Warfarin',
			'Seizure disorder: Epilepsy',
			'CONDITIONS',
			'Atrial fibrillation (Chronic): Rate controlled',
			'Epilepsy (Active)',
			'ALLERGIES',
			'Penicillin (Severe): Anaphylaxis',
			'Latex (Moderate): Hives',
			'Shellfish (Mild)',
			'MEDICATIONS',
			'Warfarin 5 mg, daily',
			'Fluoxetine 20 mg, daily',
			'EMERGENCY CONTACTS',
			'Luis Santos (Son) +1 (555) 010-0200',
			'Ana Ferreira (Daughter) +1 (555) 010-0300',
			'IDENTITY',
			'Height: 5 ft 4 in · Weight: 140 lb · Hair: Grey · Eyes: Brown',
			'Distinguishing marks: Scar on left knee',
			'INSURANCE',
			'Medicare · Policy 1EG4-TE5-MK73 · +1 800 633 4227',
			'Medigap plan G',
			'NOTES',
			'Pacemaker fitted in 2019',
			'Lives alone; the neighbour has a key',
			'Scan for full information',
			'Information last confirmed by its owner on November 1, 2026',
		])
			expect(read.text).toContain(words)
		expect(read.text).not.toContain('more: scan the code')
		expect(belowCut(read.words)).toBe('Vial of Life inside: see the fridge Emergency medical information')
	})

	test('large type: nothing under 14 pt, the lists in 16 pt when they fit, the headings larger, the name larger still', async () => {
		const { read } = await render()
		const height = (text: string) => read.words.find((w) => w.text === text)!.yMax - read.words.find((w) => w.text === text)!.yMin
		expect(Math.min(...read.words.map((w) => w.yMax - w.yMin))).toBeGreaterThanOrEqual(wordHeight(14) - 0.05)
		expect(height('Fluoxetine')).toBeCloseTo(wordHeight(16), 1)
		expect(height('ALLERGIES')).toBeGreaterThan(height('Fluoxetine') + 1)
		expect(height('Maria')).toBeGreaterThan(height('ALLERGIES') + 1)
	})

	test('nothing leaves the margins or crosses the cut line, and no two words overlap', async () => {
		const { read } = await render()
		expect(outside(read.words, 'letter')).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('the QR code, read from the printed page, is the scan URL', async () => {
		const { pdf } = await render()
		expect(await qrOnPage(pdf, 'letter')).toEqual([CARD_SCAN_URL])
	})

	test('on A4: one A4 page, everything inside its margins, the same QR code', async () => {
		const { pdf, read } = await render(fullSheetProfile(), 'en', 'a4')
		expect(read.pages).toBe(1)
		expect(read.pageSize).toMatch(/^595\.2\d* x 841\.89 pts \(A4\)/)
		expect(read.text).toContain('Penicillin (Severe): Anaphylaxis')
		expect(read.text).not.toContain('more: scan the code')
		expect(outside(read.words, 'a4')).toEqual([])
		expect(overlapping(read.words)).toEqual([])
		expect(await qrOnPage(pdf, 'a4')).toEqual([CARD_SCAN_URL])
	})

	test.each([
		[
			'es',
			[
				'INFORMACIÓN MÉDICA DE EMERGENCIA',
				'En una emergencia, llame al 911.',
				'Edad 76 · Nacimiento 15 de junio de 1950',
				'DNR: No reanimar',
				'Grupo sanguíneo: AB-',
				'ALERGIAS',
				'Penicillin (Grave): Anaphylaxis',
				'MEDICAMENTOS',
				'CONTACTOS DE EMERGENCIA',
				'IDENTIDAD',
				'Estatura: 5 ft 4 in',
				'SEGURO MÉDICO',
				'Escanee para ver toda la información',
				'Información confirmada por su titular el 1 de noviembre de 2026',
			],
			'Vial of Life adentro: vea el refrigerador Información médica de emergencia',
		],
		[
			'fr',
			[
				'INFORMATIONS MÉDICALES D’URGENCE',
				'En cas d’urgence, appelez le 911.',
				'Âge 76 · Né(e) le 15 juin 1950',
				'DNR : ne pas réanimer',
				'Groupe sanguin : AB-',
				'ALLERGIES',
				'Penicillin (Grave) : Anaphylaxis',
				'MÉDICAMENTS',
				'CONTACTS D’URGENCE',
				'IDENTITÉ',
				'Taille : 5 ft 4 in',
				'ASSURANCE',
				'Scannez pour toutes les informations',
				'Informations confirmées par leur titulaire le 1 novembre 2026',
			],
			'Vial of Life à l’intérieur : voir le réfrigérateur Informations médicales d’urgence',
		],
	] as const)('in %s, with that language’s labels and envelope label', async (lang, words, label) => {
		const { read } = await render(fullSheetProfile(), lang)
		for (const w of words) expect(read.text).toContain(w)
		expect(read.text).toContain('Luis Santos (Son) +1 (555) 010-0200')
		expect(belowCut(read.words)).toBe(label)
		expect(outside(read.words, 'letter')).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('more than fits at 16 pt: the lists shrink to 14 pt, no less, and everything is still there', async () => {
		const medications = [...fullSheetProfile().medications, ...manyMedications(3)]
		const { read } = await render(fullSheetProfile({ medications }))
		const text = columnText(read.words, 'letter')
		expect(text.match(/Medicine \d+ 10 mg, twice daily/g)).toHaveLength(3)
		for (const words of ['Warfarin 5 mg, daily', 'Fluoxetine 20 mg, daily', 'Shellfish (Mild)', 'Lives alone; the neighbour has a key'])
			expect(text).toContain(words)
		expect(read.text).not.toContain('more: scan the code')
		const fluoxetine = read.words.find((w) => w.text === 'Fluoxetine')!
		expect(fluoxetine.yMax - fluoxetine.yMin).toBeCloseTo(wordHeight(14), 1)
		expect(Math.min(...read.words.map((w) => w.yMax - w.yMin))).toBeGreaterThanOrEqual(wordHeight(14) - 0.05)
		expect(outside(read.words, 'letter')).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('far more than fits: still one page in 14 pt, each list cut short says how many more to scan for, the label and code intact', async () => {
		const contacts = Array.from({ length: 6 }, (_, i) => ({
			name: `Contact ${i + 1}`,
			relationship: 'Friend',
			phoneNumber: `+1 (555) 010-04${i}0`,
		}))
		const conditions = Array.from({ length: 12 }, (_, i) => ({ condition: `Condition ${i + 1}`, status: 'Active', notes: null }))
		const profile = fullSheetProfile({
			allergies: manyAllergies(30),
			medications: manyMedications(20),
			medicalConditions: conditions,
			emergencyContacts: contacts,
		})
		for (const [lang, paper] of [
			['en', 'letter'],
			['fr', 'a4'],
		] as const) {
			const { pdf, read } = await render(profile, lang, paper)
			expect(read.pages).toBe(1)
			expect(Math.min(...read.words.map((w) => w.yMax - w.yMin))).toBeGreaterThanOrEqual(wordHeight(14) - 0.05)
			const headings =
				lang === 'en'
					? ['CONDITIONS', 'ALLERGIES', 'MEDICATIONS', 'EMERGENCY CONTACTS', 'IDENTITY']
					: ['PATHOLOGIES', 'ALLERGIES', 'MÉDICAMENTS', 'CONTACTS D’URGENCE', 'IDENTITÉ']
			const text = columnText(read.words, paper)
			const more = cutShort(text, headings)
			// Every item is either on the page or counted in its list's "+N more" line, and each list keeps some.
			const shown = (pattern: RegExp) => (text.match(pattern) ?? []).length
			expect(shown(/Condition \d+/g) + more[headings[0]!]!).toBe(12)
			expect(shown(/Pollen variety \d+/g) + more[headings[1]!]!).toBe(30)
			expect(shown(/Medicine \d+ 10 mg/g) + more[headings[2]!]!).toBe(20)
			expect(shown(/Contact \d+ \(Friend\)/g) + more[headings[3]!]!).toBe(6)
			for (const pattern of [/Condition \d+/g, /Pollen variety \d+/g, /Medicine \d+ 10 mg/g, /Contact \d+ \(Friend\)/g])
				expect(shown(pattern)).toBeGreaterThan(0)
			expect(text).toMatch(lang === 'en' ? /\+\d+ more: scan the code/ : /\+\d+ de plus : scannez le code/)
			expect(belowCut(read.words)).toContain(lang === 'en' ? 'Vial of Life inside: see the fridge' : 'Vial of Life à l’intérieur')
			expect(outside(read.words, paper)).toEqual([])
			expect(overlapping(read.words)).toEqual([])
			expect(await qrOnPage(pdf, paper)).toEqual([CARD_SCAN_URL])
		}
	})

	test('a very long name and code status on top of every list overflowing: still nothing outside the margins or overlapping', async () => {
		const long = 'Wolfeschlegelsteinhausenbergerdorff'
		const profile: SheetProfile = fullSheetProfile({
			fullName: `Hubert Blaine ${long} Sr. the Third of Philadelphia and of the County of ${long}`,
			dnrOriginalLocation: `In the ${long} folder in the top drawer of the kitchen desk beside the telephone in the hall by the stairs`,
			allergies: manyAllergies(30),
			medications: manyMedications(20),
			additionalNotes: 'A note written at great length '.repeat(20),
			emergencyContacts: [{ name: `${long} ${long}`, relationship: 'Neighbour', phoneNumber: '+44 20 7946 0958 extension 1234' }],
		})
		for (const paper of ['letter', 'a4'] as const) {
			const { read } = await render(profile, 'es', paper, await photo())
			expect(read.pages).toBe(1)
			expect(read.text).toContain('Hubert')
			expect(read.text).toContain('…')
			expect(outside(read.words, paper)).toEqual([])
			expect(overlapping(read.words)).toEqual([])
			expect(belowCut(read.words)).toContain('Vial of Life adentro: vea el refrigerador')
		}
	})

	test('nothing recorded: "No DNR recorded" and "None recorded", no critical, identity, insurance or notes heading', async () => {
		const { read } = await render(
			fullSheetProfile({
				dnrStatus: null,
				dateOfBirth: null,
				allergies: [],
				medications: [],
				medicalConditions: [],
				emergencyContacts: [],
				bloodType: null,
				additionalNotes: null,
				distinguishingMarks: null,
				height: null,
				weight: null,
				hairColor: null,
				eyeColor: null,
				insurance: null,
				insurancePolicies: [],
			}),
		)
		expect(read.text).toContain('No DNR recorded')
		expect(read.text.match(/None recorded/g)).toHaveLength(4)
		expect(read.text).toContain('Blood type: ?')
		for (const heading of ['CRITICAL', 'IDENTITY', 'INSURANCE', 'NOTES', 'Age', 'Born']) expect(read.text).not.toContain(heading)
	})

	test('the photo is drawn when there is one', async () => {
		const { read } = await render(fullSheetProfile(), 'en', 'letter', await photo())
		expect(read.images).toHaveLength(1)
		expect(read.images[0]).toMatch(/\b150\s+200\b.*\bjpeg\b/)
		expect(outside(read.words, 'letter')).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})
})

const photo = () =>
	sharp({ create: { width: 150, height: 200, channels: 3, background: '#336699' } })
		.jpeg()
		.toBuffer()
