import { fridgeSheet } from '#app/domain/cards/cards.server.ts'
import { FridgeSheetQuerySchema } from '#app/domain/cards/schemas.ts'
import { cardResource } from './card-download.server.ts'

/**
 * GET /api/medical-profiles/:id/fridge-sheet.pdf?lang=en|es|fr[&paper=letter|a4][&code=]: the profile's one-page sheet
 * in large type, with its envelope label, made now. Owner only.
 */
const api = cardResource(FridgeSheetQuerySchema, fridgeSheet, 'application/pdf')

export const loader = api.loader
export const action = api.action
