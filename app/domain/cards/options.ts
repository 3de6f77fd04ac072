import { LANGUAGE_NAMES, LANGUAGES } from '#app/domain/responder/labels.ts'

// What the wallet card, fridge sheet and lock-screen downloads offer; no zod here, so the download forms stay light.

export const NO_ACTIVE_CODE = 'Link an active QR code to this profile first.'
/** A card whose code opens the neutral page would mislead whoever scans it. */
export const SCANNING_OFF = 'Turn QR scanning on for this profile first: while it is off, its code shows nothing.'

export const CARD_LANGUAGES = LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))

/** The fridge sheet's paper; the first is the default (the service is American: 911, Letter), whatever the language. */
export const PAPERS = ['letter', 'a4'] as const
export type Paper = (typeof PAPERS)[number]
export const PAPER_OPTIONS: ReadonlyArray<{ value: Paper; label: string }> = [
	{ value: 'letter', label: 'Letter (8.5 × 11 in)' },
	{ value: 'a4', label: 'A4 (210 × 297 mm)' },
]

/** Common phone screens, in pixels; the first is the default. */
export const LOCK_SCREEN_SIZES = [
	{ width: 1170, height: 2532, devices: 'iPhone 12, 13, 14' },
	{ width: 1179, height: 2556, devices: 'iPhone 14 Pro, 15, 16' },
	{ width: 1290, height: 2796, devices: 'iPhone 15 Plus, 15 Pro Max, 16 Plus' },
	{ width: 1080, height: 2400, devices: 'Android, Full HD+' },
	{ width: 1440, height: 3200, devices: 'Android, Quad HD+' },
] as const
export const DEFAULT_LOCK_SCREEN = LOCK_SCREEN_SIZES[0]

export const sizeName = (size: { width: number; height: number }) => `${size.width}×${size.height}`
