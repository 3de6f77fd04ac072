import { monitorEventLoopDelay } from 'node:perf_hooks'
import sharp from 'sharp'
import { cardFacts, sheetFacts } from '#app/domain/cards/facts.ts'
import { renderFridgeSheetPdf } from '#app/domain/cards/fridge-sheet.server.ts'
import { renderLockScreenPng } from '#app/domain/cards/lock-screen.server.ts'
import { LOCK_SCREEN_SIZES } from '#app/domain/cards/options.ts'
import { renderWalletCardPdf } from '#app/domain/cards/wallet-card.server.ts'
import { fullCardProfile, fullSheetProfile, manyAllergies } from '#tests/cards.ts'

/*
 * `npm run bench:cards`: a measurement, not a test. Renders the wallet card (PDF, with a photo), the fridge sheet (PDF,
 * with a photo, Letter: the one that tries every size and split before it cuts lists short) and the largest lock-screen
 * image (PNG) of a full profile with 30 allergies, as a download does once the profile is read, and prints
 * the first (cold) render and the median and slowest of BENCH_RUNS (10) more; for each, how long the event loop was held
 * (the PDF is built on the main thread; the PNG is rasterised on libuv's thread pool).
 */

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const SCAN_URL = 'https://hitmehelpers.org/scan/AbCdEfGhIjKlMnOpQrStUvWx'
const largest = LOCK_SCREEN_SIZES.reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b))

async function measure(name: string, render: () => Promise<Uint8Array>) {
	const times: number[] = []
	const loopMax: number[] = []
	let bytes = 0
	for (let i = 0; i <= RUNS; i++) {
		const loop = monitorEventLoopDelay({ resolution: 1 })
		loop.enable()
		const start = performance.now()
		bytes = (await render()).byteLength
		times.push(performance.now() - start)
		// Lets the monitor's timer see the loop once more before it is read.
		await new Promise((resolve) => setTimeout(resolve, 5))
		loop.disable()
		loopMax.push(loop.max / 1e6)
	}
	const [cold, ...warm] = times
	const sorted = [...warm].sort((a, b) => a - b)
	const median = sorted[Math.floor(sorted.length / 2)]!
	const loopWarm = loopMax.slice(1).sort((a, b) => a - b)
	console.log(
		`${name.padEnd(34)} cold ${cold!.toFixed(0).padStart(4)} ms · median ${median.toFixed(0).padStart(4)} ms · slowest ${sorted.at(-1)!.toFixed(0).padStart(4)} ms` +
			` · event loop held up to ${loopWarm[Math.floor(loopWarm.length / 2)]!.toFixed(0)} ms (median run) · ${(bytes / 1024).toFixed(0)} KB`,
	)
}

const facts = cardFacts(fullCardProfile({ allergies: manyAllergies(30) }), 'en')
const photo = await sharp({ create: { width: 240, height: 300, channels: 3, background: '#556677' } })
	.jpeg({ quality: 85 })
	.toBuffer()
console.log(`${RUNS} warm runs after a cold one; Node ${process.version}`)
await measure('wallet card PDF (Letter, photo)', () => renderWalletCardPdf({ facts, scanUrl: SCAN_URL, photo }))
const sheet = sheetFacts(fullSheetProfile({ allergies: manyAllergies(30) }), 'en')
await measure('fridge sheet PDF (Letter, photo)', () => renderFridgeSheetPdf({ facts: sheet, scanUrl: SCAN_URL, photo, paper: 'letter' }))
await measure(`lock-screen PNG ${largest.width}×${largest.height}`, () =>
	renderLockScreenPng({ facts, scanUrl: SCAN_URL, width: largest.width, height: largest.height }),
)
