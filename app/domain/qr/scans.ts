/** How a recorded scan's scanner reads to a person: the same words on the owner's scan history and the admin's QR scans. */
const SCANNER_LABELS: Record<string, string> = {
	emergency_responder: 'Emergency responder',
	owner: "The code's owner",
	link_preview: 'Link preview (not a person)',
}
export const scannerLabel = (type: string | null) => (type ? (SCANNER_LABELS[type] ?? type) : 'Unknown')

export const scanPlace = (scan: { city: string | null; state: string | null; country: string | null }) =>
	[scan.city, scan.state, scan.country].filter(Boolean).join(', ') || 'Not known'
