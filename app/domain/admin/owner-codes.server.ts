import { eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { heavyWork } from '#app/domain/heavy-work.server.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { DEFAULT_CUSTOMIZATION } from '#app/domain/qr/manage.server.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'
import { renderFile } from '#app/domain/render/pool.server.ts'

/**
 * Any code's image as the owner sees it in the order list, in its own colours and shape: an SVG, or a PNG made on a
 * renderer through the heavy-work pool, in the requester's line as an owner's thumbnails are. Null for an unknown code.
 */
export async function ownerCodeImage(codeId: number, format: 'png' | 'svg', requester: string, width = 160) {
	const code = await db.query.qrCodes.findFirst({ columns: { token: true, customization: true }, where: eq(qrCodes.id, codeId) })
	if (!code) return null
	const options = { ...(code.customization ?? DEFAULT_CUSTOMIZATION), data: scanUrl(code.token), width }
	if (format === 'svg') return renderQrSvg(options)
	return heavyWork(requester, () => renderFile({ kind: 'qr-png', options }))
}
