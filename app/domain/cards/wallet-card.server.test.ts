import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { CARD_SCAN_URL, fullCardProfile, manyAllergies, overlapping, readPdf, type Word } from '#tests/cards.ts'
import { decodePdfBox } from '#tests/zbar-all.ts'
import { cardFacts } from './facts.ts'
import { CARD_BOX, PANEL_WIDTH, QR_BOX, renderWalletCardPdf } from './wallet-card.server.ts'

const FOLD = CARD_BOX.left + PANEL_WIDTH

/** Every word of the card (the instruction line above it aside) that is not well inside its own panel. */
function outside(words: Word[]) {
	return words
		.filter((w) => w.yMin >= CARD_BOX.top - 1)
		.filter((w) => {
			const panel = w.xMin < FOLD ? CARD_BOX.left : FOLD
			return (
				w.xMin < panel + CARD_BOX.safe - 0.5 ||
				w.xMax > panel + PANEL_WIDTH - CARD_BOX.safe + 0.5 ||
				w.yMin < CARD_BOX.top ||
				w.yMax > CARD_BOX.top + CARD_BOX.height - 1
			)
		})
		.map((w) => `${w.text} (${w.xMin.toFixed(1)}, ${w.yMin.toFixed(1)})`)
}

async function render(profile = fullCardProfile(), lang: 'en' | 'es' | 'fr' = 'en', photo: Uint8Array | null = null) {
	const pdf = await renderWalletCardPdf({ facts: cardFacts(profile, lang), scanUrl: CARD_SCAN_URL, photo })
	return { pdf, read: await readPdf(pdf) }
}

describe('the wallet card PDF', () => {
	test('one Letter page whose real text holds the name, code status, every allergy, the contacts and the rest', async () => {
		const { read } = await render()
		expect(read.pages).toBe(1)
		expect(read.pageSize).toMatch(/^612 x 792 pts \(letter\)/)
		for (const words of [
			'Cut along the marks, fold in half',
			'Maria Santos',
			'DNR: Do Not Resuscitate',
			'Signed February 1, 2024',
			'Original kept: On the refrigerator',
			'Blood type: AB-',
			'Penicillin (Severe): Anaphylaxis',
			'Latex (Moderate): Hives',
			'Shellfish (Mild)',
			'Warfarin 5 mg, daily',
			'Fluoxetine 20 mg, daily',
			'Atrial fibrillation (Chronic)',
			'Luis Santos (Son) +1 (555) 010-0200',
			'Ana Ferreira (Daughter) +1 (555) 010-0300',
			'Anticoagulant / blood thinner: Warfarin',
			'Scan for full information',
			'Information last confirmed by its owner on November 1, 2026',
		])
			expect(read.text).toContain(words)
		// Severe first: the first lines are what a cut-short list keeps.
		expect(read.text.indexOf('Penicillin (Severe)')).toBeLessThan(read.text.indexOf('Latex (Moderate)'))
		expect(read.text).not.toContain('more: scan the code')
	})

	test('nothing leaves its panel or crosses the fold, and no two words overlap', async () => {
		const { read } = await render()
		expect(outside(read.words)).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('the QR code, read from the printed page, is the scan URL', async () => {
		const { pdf } = await render()
		const found = await decodePdfBox(pdf, QR_BOX)
		expect(found).toEqual([CARD_SCAN_URL])
	})

	test.each([
		[
			'es',
			[
				'Recorte por las marcas y doble por la mitad',
				'DNR: No reanimar',
				'Grupo sanguíneo: AB-',
				'ALERGIAS',
				'Penicillin (Grave): Anaphylaxis',
				'MEDICAMENTOS',
				'CONTACTOS DE EMERGENCIA',
				'Escanee para ver toda la información',
				'Información confirmada por su titular el 1 de noviembre de 2026',
			],
		],
		[
			'fr',
			[
				'Découpez le long des repères, pliez en deux',
				'DNR : ne pas réanimer',
				'Groupe sanguin : AB-',
				'ALLERGIES',
				'Penicillin (Grave) : Anaphylaxis',
				'MÉDICAMENTS',
				'CONTACTS D’URGENCE',
				'Scannez pour toutes les informations',
				'Informations confirmées par leur titulaire le 1 novembre 2026',
			],
		],
	] as const)('in %s, with that language’s labels', async (lang, words) => {
		const { read } = await render(fullCardProfile(), lang)
		for (const w of words) expect(read.text).toContain(w)
		expect(read.text).toContain('Luis Santos (Son) +1 (555) 010-0200')
		expect(outside(read.words)).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('30 allergies: the list stops with "+N more: scan the code", every allergy counted, all on the card', async () => {
		const { read } = await render(fullCardProfile({ allergies: manyAllergies(30) }))
		const shown = read.text.match(/Pollen variety \d+/g) ?? []
		const more = /\+(\d+) more: scan the code/.exec(read.text.slice(read.text.indexOf('ALLERGIES')))
		expect(more).not.toBeNull()
		expect(shown.length).toBeGreaterThan(0)
		expect(shown.length + Number(more![1])).toBe(30)
		// The lists after it keep their place.
		expect(read.text).toContain('Warfarin 5 mg, daily')
		expect(read.text).toContain('Luis Santos (Son)')
		expect(outside(read.words)).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('long names and long entries wrap or shrink, and are cut with an ellipsis, never past the panel', async () => {
		const long = 'Wolfeschlegelsteinhausenbergerdorff'
		const { read } = await render(
			fullCardProfile({
				fullName: `Hubert Blaine ${long} Sr. the Third of Philadelphia`,
				dnrOriginalLocation: `In the ${long} folder in the top drawer of the kitchen desk beside the telephone`,
				allergies: [{ allergen: `${long}${long}`, severity: 'Severe', reaction: 'A reaction described at great length '.repeat(6) }],
				emergencyContacts: [{ name: `${long} ${long}`, relationship: 'Neighbour', phoneNumber: '+44 20 7946 0958 extension 1234' }],
			}),
		)
		expect(read.text).toContain('Hubert')
		expect(read.text).toContain('…')
		expect(outside(read.words)).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})

	test('no DNR, nothing recorded: "No DNR recorded" and "None recorded", no critical heading', async () => {
		const { read } = await render(
			fullCardProfile({
				dnrStatus: null,
				allergies: [],
				medications: [],
				medicalConditions: [],
				emergencyContacts: [],
				bloodType: null,
				additionalNotes: null,
			}),
		)
		expect(read.text).toContain('No DNR recorded')
		expect(read.text).toContain('None recorded')
		expect(read.text).not.toContain('CRITICAL')
		expect(read.text).toContain('Blood type: ?')
	})

	test.each([
		['POLST', 'POLST on File'],
		['Unknown', 'DNR status unknown'],
		['None', 'No DNR recorded'],
	])('code status %s reads "%s"', async (dnrStatus, words) => {
		const { read } = await render(fullCardProfile({ dnrStatus }))
		expect(read.text).toContain(words)
	})

	test('the photo is drawn when there is one', async () => {
		const photo = await sharp({ create: { width: 120, height: 150, channels: 3, background: '#336699' } })
			.jpeg()
			.toBuffer()
		const { read } = await render(fullCardProfile(), 'en', photo)
		expect(read.images).toHaveLength(1)
		expect(read.images[0]).toMatch(/\b120\s+150\b.*\bjpeg\b/)
		expect(outside(read.words)).toEqual([])
		expect(overlapping(read.words)).toEqual([])
	})
})
