export const QR_INTENTS = {
	generate: 'generate',
	customize: 'customize',
	toggle: 'toggle',
	remove: 'delete',
	assign: 'assign-profile',
} as const
