/** Spec 001 §8: what the QR page and the JSON API tell the person after each action. */
export const QR_MESSAGES = {
	generated: 'QR code generated successfully',
	updated: 'QR code updated with your latest medical information',
	deleted: 'QR code deleted successfully',
	noProfile: 'No medical profile selected',
	activated: { title: 'QR Code Activated', description: 'Your QR code is now active and can be scanned' },
	deactivated: { title: 'QR Code Deactivated', description: 'Your QR code is temporarily disabled' },
	refreshed: (n: number) => `Updated ${n} QR codes with current medical information`,
} as const
