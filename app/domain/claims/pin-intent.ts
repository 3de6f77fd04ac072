/** What a PIN form sends as its intent to /auth, whichever page shows it (no zod here: the form is in first loads). */
export const PIN_INTENT = 'claim-pin'
