import { z } from 'zod'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { CONSENT_INTENTS, ConsentFormSchema } from '#app/domain/consent/schemas.ts'

export { UNKNOWN_ACTION }

/** Where the page goes next (checked by safeRedirect); one too long to be a page of this site is no place at all. */
const RedirectTo = z.string().max(2000).optional().catch(undefined)

/** The consent page's two forms: agreeing to the forms shown, and closing the notice (posted here from any page). */
export const ConsentPageSchema = z.discriminatedUnion(
	'intent',
	[
		ConsentFormSchema.extend({ intent: z.literal(CONSENT_INTENTS.agree), redirectTo: RedirectTo }),
		z.object({ intent: z.literal(CONSENT_INTENTS.dismissNotice), redirectTo: RedirectTo }),
	],
	{ error: UNKNOWN_ACTION },
)
