import { Transform } from 'node:stream'

const HEAD_END = Buffer.from('</head>')

/**
 * Passes a page's HTML through, asking for its module preloads at low priority. React Router's <Scripts> preloads the
 * page's modules (React hoists the links into the head) at the browser's default, high, which puts 110 KB of script
 * ahead of the HTML's own images and in the way of the first paint. The page paints and works from its HTML; its
 * script only hydrates it, so it can come after. Only the head is read: the rest streams through untouched.
 */
export function lowPriorityModulePreloads() {
	let head: Buffer[] | null = []
	return new Transform({
		transform(chunk: Buffer, _encoding, callback) {
			if (!head) return callback(null, chunk)
			head.push(chunk)
			const html = Buffer.concat(head)
			const end = html.indexOf(HEAD_END)
			if (end === -1) return callback()
			head = null
			const at = end + HEAD_END.length
			const rewritten = html
				.subarray(0, at)
				.toString('utf8')
				.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"')
			callback(null, Buffer.concat([Buffer.from(rewritten), html.subarray(at)]))
		},
		flush(callback) {
			callback(null, head ? Buffer.concat(head) : null)
		},
	})
}
