import { walletCard } from '#app/domain/cards/cards.server.ts'
import { WalletCardQuerySchema } from '#app/domain/cards/schemas.ts'
import { cardResource } from './card-download.server.ts'

/** GET /api/medical-profiles/:id/wallet-card.pdf?lang=en|es|fr[&code=]: the profile's fold-in-half wallet card, made now. Owner only. */
const api = cardResource(WalletCardQuerySchema, walletCard, 'application/pdf')

export const loader = api.loader
export const action = api.action
