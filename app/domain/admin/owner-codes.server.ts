import { eq } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { qrCodes } from '#db/schema.ts'
import { scanUrl } from '#app/domain/qr/codes.server.ts'
import { DEFAULT_CUSTOMIZATION } from '#app/domain/qr/manage.server.ts'
import { renderQrSvg } from '#app/domain/qr/render.server.ts'

/** Any code's image as the owner sees it in the order list: its own colours and shape, as an SVG. */
export async function ownerCodeSvg(codeId: number, width = 160) {
	const code = await db.query.qrCodes.findFirst({ columns: { token: true, customization: true }, where: eq(qrCodes.id, codeId) })
	if (!code) return null
	const look = code.customization ?? DEFAULT_CUSTOMIZATION
	return renderQrSvg({ ...look, data: scanUrl(code.token), width })
}
