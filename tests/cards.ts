import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { CardProfile, SheetProfile } from '#app/domain/cards/facts.ts'

const run = promisify(execFile)

export const CARD_SCAN_URL = 'https://hmh.example/scan/AbCdEfGhIjKlMnOpQrStUvWx'

/** A profile with something in every field a card shows, a few of each list, and words with ligatures (fi, fl). */
export function fullCardProfile(overrides: Partial<CardProfile> = {}): CardProfile {
	return {
		fullName: 'Maria Santos',
		firstName: 'Maria',
		lastName: 'Santos',
		dnrStatus: 'DNR',
		dnrDocumentDate: '2024-02-01',
		dnrOriginalLocation: 'On the refrigerator',
		bloodType: 'AB-',
		distinguishingMarks: 'Scar on left knee',
		additionalNotes: 'Pacemaker fitted in 2019',
		confirmedAt: new Date('2026-11-01T12:00:00Z'),
		createdAt: new Date('2025-03-04T12:00:00Z'),
		allergies: [
			{ allergen: 'Latex', severity: 'Moderate', reaction: 'Hives' },
			{ allergen: 'Penicillin', severity: 'Severe', reaction: 'Anaphylaxis' },
			{ allergen: 'Shellfish', severity: 'Mild', reaction: null },
		],
		medications: [
			{ name: 'Fluoxetine', dosage: '20 mg', frequency: 'daily' },
			{ name: 'Warfarin', dosage: '5 mg', frequency: 'daily' },
		],
		medicalConditions: [
			{ condition: 'Atrial fibrillation', status: 'Chronic', notes: null },
			{ condition: 'Epilepsy', status: 'Active', notes: null },
		],
		emergencyContacts: [
			{ name: 'Luis Santos', relationship: 'Son', phoneNumber: '+1 (555) 010-0200' },
			{ name: 'Ana Ferreira', relationship: 'Daughter', phoneNumber: '+1 (555) 010-0300' },
		],
		...overrides,
	}
}

/** fullCardProfile with what only the fridge sheet shows besides: date of birth, identity, insurance, condition notes. */
export function fullSheetProfile(overrides: Partial<SheetProfile> = {}): SheetProfile {
	return {
		...fullCardProfile({
			medicalConditions: [
				{ condition: 'Atrial fibrillation', status: 'Chronic', notes: 'Rate controlled' },
				{ condition: 'Epilepsy', status: 'Active', notes: null },
			],
			additionalNotes: 'Pacemaker fitted in 2019\nLives alone; the neighbour has a key',
		}),
		dateOfBirth: '1950-06-15',
		height: '5 ft 4 in',
		weight: '140 lb',
		hairColor: 'Grey',
		eyeColor: 'Brown',
		insurance: 'Medigap plan G',
		insurancePolicies: [{ provider: 'Medicare', policyNumber: '1EG4-TE5-MK73', groupNumber: null, providerPhone: '+1 800 633 4227' }],
		...overrides,
	}
}

/** `count` mild allergies (no critical flag): "Pollen variety 1" … */
export const manyAllergies = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ allergen: `Pollen variety ${i + 1}`, severity: 'Mild', reaction: 'Sneezing and itchy eyes' }))

/** `count` medications with nothing to flag: "Medicine 1 10 mg, twice daily" … */
export const manyMedications = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ name: `Medicine ${i + 1}`, dosage: '10 mg', frequency: 'twice daily' }))

export type Word = { text: string; xMin: number; yMin: number; xMax: number; yMax: number }

const unescape = (s: string) =>
	s
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&amp;/g, '&')

/** A PDF read back with poppler: its text (spacing folded to single spaces), every word's box, pdfinfo's fields, its images. */
export async function readPdf(pdf: Uint8Array) {
	const dir = await mkdtemp(join(tmpdir(), 'hmh-card-'))
	try {
		const file = join(dir, 'card.pdf')
		await writeFile(file, pdf)
		const [text, bbox, info, images] = await Promise.all([
			run('pdftotext', [file, '-']),
			run('pdftotext', ['-bbox', file, '-']),
			run('pdfinfo', [file]),
			run('pdfimages', ['-list', file]),
		])
		const words: Word[] = [
			...bbox.stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)<\/word>/g),
		].map((m) => ({ text: unescape(m[5]!), xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) }))
		return {
			text: text.stdout.replace(/\s+/g, ' '),
			words,
			pages: Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]),
			pageSize: /^Page size:\s+(.*)$/m.exec(info.stdout)?.[1],
			images: images.stdout.trim().split('\n').slice(2),
		}
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}

/** Pairs of words whose boxes overlap by more than a hair. */
export function overlapping(words: Word[]) {
	const pairs: string[] = []
	for (let i = 0; i < words.length; i++)
		for (let j = i + 1; j < words.length; j++) {
			const a = words[i]!
			const b = words[j]!
			const w = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin)
			const h = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin)
			if (w > 0.2 && h > 0.2) pairs.push(`${a.text} / ${b.text}`)
		}
	return pairs
}

/** PNG header: width and height. */
export const pngSize = (png: Uint8Array) => {
	const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength)
	return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) }
}
