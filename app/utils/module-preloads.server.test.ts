import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { expect, test } from 'vitest'
import { lowPriorityModulePreloads } from './module-preloads.server.ts'

const page =
	'<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/entry.js"/><link rel="modulepreload" href="/assets/root.js"/><title>Café ☕</title></head>' +
	'<body><p>Naïve résumé — <code>&lt;link rel="modulepreload"</code></p><script type="module">import("/assets/entry.js")</script></body></html>'

/** The page cut into pieces of `size` bytes, so tags and multi-byte characters fall across chunks. */
function streamed(size: number) {
	const bytes = Buffer.from(page)
	const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size))
	return text(Readable.from(chunks).pipe(lowPriorityModulePreloads()))
}

test.each([1, 7, 64, 10_000])(
	'module preloads in the head ask for low priority, however the page is cut (%i-byte chunks)',
	async (size) => {
		const out = await streamed(size)
		expect(out).toBe(page.replaceAll('<link rel="modulepreload" href', '<link rel="modulepreload" fetchpriority="low" href'))
		expect(out).toContain('<title>Café ☕</title>')
		expect(out).toContain('<code>&lt;link rel="modulepreload"</code>')
	},
)

test('a document without a head comes through whole', async () => {
	const out = await text(Readable.from([Buffer.from('<p>Plain <b>text</b> ☕</p>')]).pipe(lowPriorityModulePreloads()))
	expect(out).toBe('<p>Plain <b>text</b> ☕</p>')
})
