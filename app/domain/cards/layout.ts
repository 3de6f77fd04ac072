/** The inks every card and lock screen prints with: text, the critical red, and the DNR notice's border and fill. */
export const INK = '#111111'
export const RED = '#991B1B'
export const DNR_BORDER = '#B91C1C'
export const DNR_FILL = '#FEF2F2'

/** Width of `text` set at `size` in the regular or bold face, in the same units as `size`. */
export type Measure = (text: string, size: number, bold?: boolean) => number

const ELLIPSIS = '…'

/**
 * Splits text into lines no wider than `width`: at spaces where it can, anywhere where a word alone is too wide. Past
 * `maxLines` the last line ends with an ellipsis, so a cut is always visible.
 */
export function wrapText(text: string, width: number, size: number, measure: Measure, options: { bold?: boolean; maxLines?: number } = {}) {
	const { bold = false, maxLines = Infinity } = options
	const fits = (s: string) => measure(s, size, bold) <= width
	const lines: string[] = []
	let line = ''
	// A no-break space (French before a colon) binds like a letter.
	for (const word of text
		.replace(/[ \t\n\r\f\v]+/g, ' ')
		.trim()
		.split(' ')) {
		const candidate = line ? `${line} ${word}` : word
		if (fits(candidate)) {
			line = candidate
			continue
		}
		if (line) lines.push(line)
		let rest = word
		while (!fits(rest) && rest.length > 1) {
			let cut = rest.length - 1
			while (cut > 1 && !fits(rest.slice(0, cut))) cut--
			lines.push(rest.slice(0, cut))
			rest = rest.slice(cut)
		}
		line = rest
	}
	if (line) lines.push(line)
	if (lines.length <= maxLines) return lines
	const kept = lines.slice(0, maxLines)
	let last = kept[maxLines - 1]!
	while (last.length > 0 && !fits(`${last}${ELLIPSIS}`)) last = last.slice(0, -1)
	kept[maxLines - 1] = `${last.trimEnd()}${ELLIPSIS}`
	return kept
}

/** The largest size from `largest` down to `smallest` (in steps of a quarter) at which text fits in `maxLines` lines. */
export function fitText(
	text: string,
	width: number,
	measure: Measure,
	options: { largest: number; smallest: number; maxLines: number; bold?: boolean },
) {
	const { largest, smallest, maxLines, bold } = options
	for (let size = largest; size > smallest; size -= 0.25) {
		const lines = wrapText(text, width, size, measure, { bold })
		if (lines.length <= maxLines) return { size, lines }
	}
	return { size: smallest, lines: wrapText(text, width, smallest, measure, { bold, maxLines }) }
}

/**
 * One list on a card: a heading, its items' heights, and the heights of the "+N more" line and of the line saying
 * nothing is recorded. `min` items are shown before any other list grows; no more than `max` are ever shown.
 */
export type ListBlock = { heading: number; items: number[]; more: number; none: number; min?: number; max?: number }

function blockHeight(block: ListBlock, shown: number) {
	if (block.items.length === 0) return block.heading + block.none
	let height = block.heading
	for (let i = 0; i < shown; i++) height += block.items[i]!
	return shown < block.items.length ? height + block.more : height
}

/**
 * How many items of each list fit in `height`: each list's `min` first, then one item at a time to each list in
 * turn, so a long list never crowds out the ones after it. A list cut short ends with its "+N more" line, counted here.
 */
export function allocate(blocks: ListBlock[], height: number) {
	const shown = blocks.map((b) => Math.min(b.min ?? 0, b.max ?? Infinity, b.items.length))
	const total = () => blocks.reduce((sum, b, i) => sum + blockHeight(b, shown[i]!), 0)
	// Too little room even for the minimums: the later lists give theirs up first.
	for (let i = blocks.length - 1; i >= 0 && total() > height; i--) while (shown[i]! > 0 && total() > height) shown[i]!--
	let grew = true
	while (grew) {
		grew = false
		blocks.forEach((block, i) => {
			const next = shown[i]! + 1
			if (next > Math.min(block.max ?? Infinity, block.items.length)) return
			const added = blockHeight(block, next) - blockHeight(block, shown[i]!)
			if (total() + added <= height + 1e-6) {
				shown[i] = next
				grew = true
			}
		})
	}
	return shown
}
