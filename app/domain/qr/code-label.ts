/**
 * How a code is named where its PIN must not show (the owner's order pages, packing slips, order tracking): a printed
 * sticker by its number, a code the person made themselves likewise. The PIN claims a sticker; it stays off these.
 */
export function codeLabel(code: { id: number; pin: string | null }) {
	return code.pin ? `Sticker #${code.id}` : `QR code #${code.id}`
}
