/** What a PIN form sends as its intent to /auth, whichever page shows it. */
export const PIN_INTENT = 'claim-pin'
