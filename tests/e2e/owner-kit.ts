import { createHmac } from 'node:crypto'
import { request as http, type Page } from '@playwright/test'
import { baseURL } from '../playwright.config.ts'
import { specShopOrder } from '../spec-payloads.ts'
import { expect, rememberSecret } from './fixtures.ts'

/** The owner account (OWNER_EMAIL in the config): one per server. */
export const OWNER = { email: 'owner0@e2e.example', password: 'Fixture-pass-1!' }

/** RFC 6238 by hand: the code of the time step `offset` steps from the current one (the server allows ±1 step). */
export function totp(base32Secret: string, offset: -1 | 1) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
	let bits = ''
	for (const char of base32Secret) bits += alphabet.indexOf(char).toString(2).padStart(5, '0')
	const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)))
	const counter = Buffer.alloc(8)
	counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset))
	const mac = createHmac('sha1', key).update(counter).digest()
	const offsetInMac = mac[mac.length - 1]! & 0xf
	const code = String((mac.readUInt32BE(offsetInMac) & 0x7fffffff) % 1_000_000).padStart(6, '0')
	rememberSecret(code)
	return code
}

export async function enterCode(page: Page, code: string, button: string) {
	await page.getByLabel('Code', { exact: true }).fill(code)
	await page.getByRole('button', { name: button }).click()
}

/** A refused code is said beside the field, which has the focus again, and the title starts with "Error:". */
export async function expectWrongCodeAnnounced(page: Page) {
	const field = page.getByLabel('Code', { exact: true })
	await expect(field).toHaveAccessibleDescription(/That code is not right\./)
	await expect(field).toHaveAttribute('aria-invalid', 'true')
	await expect(field).toBeFocused()
	await expect(page).toHaveTitle(/^Error: Two-factor sign-in · /)
}

/** A customer with a claimed sticker places a free order through the spec's JSON calls; its confirmation number. */
export async function customerOrder(customer: { email: string; password: string }, pin: string) {
	const api = await http.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } })
	try {
		expect((await api.post('/login', { form: customer, maxRedirects: 0 })).status()).toBe(302)
		const claimed = await api.post('/api/pin/claim', { data: { pin } })
		expect(claimed.ok(), await claimed.text()).toBe(true)
		const { qrCodeId } = (await claimed.json()) as { qrCodeId: number }
		const order = await api.post('/api/create-shop-order', { data: specShopOrder(qrCodeId) })
		expect(order.status(), await order.text()).toBe(201)
		const { checkoutUrl } = (await order.json()) as { checkoutUrl: string }
		return new URL(checkoutUrl, baseURL).searchParams.get('order')!
	} finally {
		await api.dispose()
	}
}
