/** Spec 001 §8: what the QR page and the JSON API tell the person after each action. */
export const QR_MESSAGES = {
	generated: 'QR code generated successfully',
	updated: 'QR code updated with your latest medical information',
	deleted: 'QR code deleted successfully',
	noProfile: 'No medical profile selected',
	createProfileFirst: 'Please create your medical profile first',
	activated: { title: 'QR Code Activated', description: 'Your QR code is now active and can be scanned' },
	deactivated: { title: 'QR Code Deactivated', description: 'Your QR code is temporarily disabled' },
	refreshed: (n: number) => `Updated ${n} QR codes with current medical information`,
	// Not in the spec: a code whose profile was deleted shows the neutral page until its owner links it again.
	needsProfile: 'Link this QR code to a profile before turning it on.',
	unlinked: (codes: Array<{ id: number; pin: string | null }>) =>
		codes.length === 0
			? ''
			: ` ${codes.length === 1 ? 'Its QR code' : `Its ${codes.length} QR codes`} (${codes.map((c) => (c.pin ? `PIN ${c.pin}` : `#${c.id}`)).join(', ')}) ${codes.length === 1 ? 'is' : 'are'} now off: link ${codes.length === 1 ? 'it' : 'them'} to a profile on the QR Codes tab to turn ${codes.length === 1 ? 'it' : 'them'} on again.`,
} as const
