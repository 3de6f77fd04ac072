import { currentConsentTexts } from '#app/domain/consent/consent.server.ts'

/** The current text of each form by type. Public: the same words anyone is asked to agree to. */
export async function loader() {
	const texts = await currentConsentTexts()
	return Response.json(Object.fromEntries(texts.map((t) => [t.consentType, t.body])), { headers: { 'cache-control': 'no-store' } })
}
