/** The most sticker codes one run creates: a print batch, and a bound on one transaction. */
export const MAX_BATCH = 1000
