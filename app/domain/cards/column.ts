import { moreLine, type CardFacts } from './facts.ts'
import { allocate, fitText, wrapText, type Measure } from './layout.ts'

/** A line of text whose box starts at `top` (y grows downwards), in the units of the card or image. */
export type TextOp = { kind: 'text'; text: string; x: number; top: number; size: number; bold: boolean; color: string }
export type Box = { x: number; top: number; width: number; height: number }

/** An item's parts: each starts a line of its own (a contact's name, then the number in bold, never split). */
export type ItemPart = { text: string; bold?: boolean }

export type ListSpec = {
	heading: string
	items: Array<string | ItemPart[]>
	headingColor?: string
	/** Items in the bold face (critical flags). */
	bold?: boolean
	min?: number
	max?: number
	/** An empty list shows nothing at all, instead of its heading and "None recorded". */
	hideWhenEmpty?: boolean
}

export type ColumnStyle = {
	size: number
	lineHeight: number
	/** Space above every list but the first. */
	gap: number
	/** Where an item's text starts, right of its bullet. */
	indent: number
	ink: string
	moreColor: string
	/** Lines an item may take before it is cut with an ellipsis. */
	itemLines: number
	/** The headings' own size and line height, when larger than the items'. */
	heading?: { size: number; lineHeight: number }
}

/**
 * Lists stacked in a box: each gets its heading and as many items as fit, shared out so that no list crowds out the
 * ones after it; a list cut short ends with "+N more: scan the code". Nothing is ever drawn outside the box.
 */
export function listColumn(...args: Parameters<typeof layListColumn>) {
	return layListColumn(...args).ops
}

/** listColumn's drawing, with how many items of each list (of those shown) it left out, and the height it took. */
export function layListColumn(
	lists: ListSpec[],
	box: Box,
	style: ColumnStyle,
	measure: Measure,
	{ labels, lang }: Pick<CardFacts, 'labels' | 'lang'>,
) {
	const headingStyle = style.heading ?? { size: style.size, lineHeight: style.lineHeight }
	const shownLists = lists.filter((l) => l.items.length > 0 || !l.hideWhenEmpty)
	const itemWidth = box.width - style.indent
	const laid = shownLists.map((list, index) => {
		const items = list.items.map((item) =>
			(typeof item === 'string' ? [{ text: item, bold: list.bold }] : item).flatMap((part) =>
				wrapText(part.text, itemWidth, style.size, measure, { bold: part.bold, maxLines: style.itemLines }).map((text) => ({
					text,
					bold: part.bold ?? false,
				})),
			),
		)
		// A heading larger than the items shrinks (to their size at the least) before it is cut.
		const heading = fitText(list.heading.toLocaleUpperCase(lang), box.width, measure, {
			largest: headingStyle.size,
			smallest: style.size,
			maxLines: 1,
			bold: true,
		})
		return { list, items, heading, gap: index === 0 ? 0 : style.gap }
	})
	const counts = allocate(
		laid.map(({ list, items, gap }) => ({
			heading: gap + headingStyle.lineHeight,
			items: items.map((lines) => lines.length * style.lineHeight),
			more: style.lineHeight,
			none: style.lineHeight,
			min: list.min,
			max: list.max,
		})),
		box.height,
	)
	const ops: TextOp[] = []
	let top = box.top
	const line = (
		text: string,
		x: number,
		bold: boolean,
		color: string,
		{ size, lineHeight }: { size: number; lineHeight: number } = style,
	) => {
		ops.push({ kind: 'text', text, x, top, size, bold, color })
		top += lineHeight
	}
	laid.forEach(({ list, items, heading, gap }, i) => {
		top += gap
		line(heading.lines[0]!, box.x, true, list.headingColor ?? style.ink, { size: heading.size, lineHeight: headingStyle.lineHeight })
		if (items.length === 0) return line(labels.none, box.x + style.indent, false, style.ink)
		items.slice(0, counts[i]).forEach((lines) => {
			ops.push({ kind: 'text', text: '•', x: box.x, top, size: style.size, bold: true, color: style.ink })
			for (const { text, bold } of lines) line(text, box.x + style.indent, bold, style.ink)
		})
		const hidden = items.length - counts[i]!
		if (hidden > 0)
			line(
				wrapText(moreLine(labels, hidden), box.width, style.size, measure, { bold: true, maxLines: 1 })[0]!,
				box.x,
				true,
				style.moreColor,
			)
	})
	return { ops, hidden: laid.map(({ items }, i) => items.length - counts[i]!), height: top - box.top }
}
