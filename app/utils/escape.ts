// One escaper for every markup the app writes by hand: HTML pages and e-mails, the XHTML of FHIR narratives, SVG and
// WordprocessingML. The five characters below are all that text or a quoted attribute value ever needs escaped there;
// the named forms are the ones XML predefines, and &#39; stands for the apostrophe (HTML 4 has no &apos;).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** The text made safe for markup, as element content or inside a quoted attribute value. */
export function escapeMarkup(text: string) {
	return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!)
}
