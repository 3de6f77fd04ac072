/**
 * A stranger's words made inert for an e-mail: mail programs turn anything that looks like an address into a link
 * (https://…, www.…, example.com, a@b.org), so a message the foundation sends would carry a link the sender chose.
 * Every scheme and every dot joining a name to what follows is written in brackets ("example[.]com", "https[:]//"),
 * as security notices quote addresses: still readable, never a link. Full-width and ideographic dots count as dots.
 */
export function inertText(text: string) {
	return text
		.normalize('NFKC')
		.replace(/([\p{L}\p{N}+.-]+):(?=\/\/|\\\\)/gu, '$1[:]')
		.replace(/(?<=[\p{L}\p{N}_%-])[.\u3002\uFF0E\uFF61](?=[\p{L}\p{N}])/gu, '[.]')
}
