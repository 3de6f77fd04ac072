import { z } from 'zod'

/** What a PIN form sends as its intent to /auth, whichever page shows it. */
export const PIN_INTENT = 'claim-pin'

/** A submission of the PIN form, told apart from the other forms of the page it is on. */
export const PinIntentSchema = z.object({ intent: z.literal(PIN_INTENT) })
