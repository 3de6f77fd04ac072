export const QR_INTENTS = {
	generate: 'generate',
	customize: 'customize',
	toggle: 'toggle',
	remove: 'delete',
	assign: 'assign-profile',
} as const

/** The id of a code's Delete link, which its dialog gives focus back to. */
export const deleteOpener = (codeId: number) => `delete-code-${codeId}`

/** The id of a code's Customise link, its card's first control: focus goes to it when the card above was deleted. */
export const customiseId = (codeId: number) => `customise-code-${codeId}`
