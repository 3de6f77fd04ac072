// The scan history's forms (code-extras.tsx, loaded apart from the tab): apart from QR_INTENTS, so the tab's first load
// does not carry them.
export const SENDER_INTENTS = { block: 'block-sender', unblock: 'unblock-sender' } as const
