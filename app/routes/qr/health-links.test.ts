import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import * as s from '#db/schema.ts'
import { listHealthLinks } from '#app/domain/sharing/health-links.server.ts'
import { HEALTH_LINK_MESSAGES, MAX_ACTIVE_LINKS } from '#app/domain/sharing/options.ts'
import { decodeShlink } from '#app/domain/sharing/shlink.ts'
import * as qrPage from '#app/routes/qr/qr-codes.tsx'
import { createElement } from 'react'
import { call, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import { renderAt, tagsWith } from '#tests/render.tsx'
import { HealthLinks } from './health-links.tsx'
import { fullProfile } from '#tests/profiles.ts'

const TAB = '/dashboard/qr-codes'

async function post(cookie: string, fields: Record<string, string>) {
	const { result } = await call(qrPage.action, formRequest(TAB, fields, { cookie }))
	return result instanceof Response ? result : unwrap(result)
}
const create = (cookie: string, profileId: number, fields: Record<string, string> = {}) =>
	post(cookie, { intent: 'shl-create', profileId: String(profileId), expires: '7d', ...fields })

describe('the QR Codes tab: SMART Health Links', () => {
	test('the tab lists the profile’s links with their QR code and text; revoked ones say so and give neither', async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		expect(await create(cookie, profile.id, { label: 'ED visit', passcode: '2468', expires: '1d' })).toHaveRedirect(`${TAB}#health-links`)
		expect(await create(cookie, profile.id, { expires: 'never' })).toHaveRedirect(`${TAB}#health-links`)
		const { result } = await call(qrPage.loader, getRequest(TAB, cookie))
		const cards = (result as Awaited<ReturnType<typeof qrPage.loader>>).healthLinks
		expect(cards).toMatchObject([{ profileId: profile.id, name: 'Maria Santos (Yourself)' }])
		const links = cards[0]!.links
		expect(links).toMatchObject([
			{ label: null, state: 'active', hasPasscode: false, expires: null, accessCount: 0, lastOpened: null, revoked: null },
			{ label: 'ED visit', state: 'active', hasPasscode: true, attemptsLeft: 10, expires: expect.stringMatching(/ ET$/) },
		])
		const [guarded] = await db.select().from(s.smartHealthLinks).where(eq(s.smartHealthLinks.id, links[1]!.id))
		expect(guarded!.expiresAt!.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000)
		expect(decodeShlink(links[1]!.shlink!)).toMatchObject({
			flag: 'P',
			label: 'ED visit',
			exp: Math.floor(guarded!.expiresAt!.getTime() / 1000),
		})
		expect(decodeShlink(links[0]!.shlink!)).not.toHaveProperty('exp')
		expect(links[0]!.qrSvg).toMatch(/^<svg /)

		const revoked = await post(cookie, { intent: 'shl-revoke', linkId: String(links[1]!.id) })
		expect(revoked).toHaveRedirect(`${TAB}?revoked=${links[1]!.id}`)
		await expect(revoked).toSendToast({ type: 'success', description: HEALTH_LINK_MESSAGES.revoked })
		expect((await listHealthLinks(user.id))[1]).toMatchObject({ state: 'revoked', shlink: null, qrSvg: null, revokedAt: expect.any(Date) })
		// Revoking again changes nothing.
		expect(await post(cookie, { intent: 'shl-revoke', linkId: String(links[1]!.id) })).toHaveRedirect(`${TAB}?revoked=${links[1]!.id}`)
	})

	test('a refused form comes back with its messages beside its fields, the passcode not echoed', async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		const short = await create(cookie, profile.id, { passcode: 'abc', label: 'Kept' })
		expect(short).toMatchObject({
			status: 400,
			body: {
				intent: 'shl-create',
				profileId: profile.id,
				result: { status: 'error', error: { passcode: ['A passcode needs at least 4 characters'] }, initialValue: { label: 'Kept' } },
			},
		})
		expect(JSON.stringify(short)).not.toContain('"abc"')
		expect(await create(cookie, profile.id, { label: 'x'.repeat(81) })).toMatchObject({
			status: 400,
			body: { intent: 'shl-create', result: { error: { label: ['Please use at most 80 characters'] } } },
		})
		expect(await create(cookie, profile.id, { passcode: 'p'.repeat(65) })).toMatchObject({
			status: 400,
			body: { intent: 'shl-create', result: { error: { passcode: ['A passcode can have at most 64 characters'] } } },
		})
		expect(await create(cookie, profile.id, { expires: '10y' })).toMatchObject({
			status: 400,
			body: { intent: 'shl-create', result: { error: { expires: ['Please choose when the link expires'] } } },
		})
		expect(await listHealthLinks(user.id)).toEqual([])
	})

	test(`at most ${MAX_ACTIVE_LINKS} active links per profile; revoked and expired ones do not count`, async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		for (let i = 0; i < MAX_ACTIVE_LINKS; i++) expect(await create(cookie, profile.id)).toHaveRedirect(`${TAB}#health-links`)
		expect(await create(cookie, profile.id, { label: 'One too many' })).toMatchObject({
			status: 400,
			body: { intent: 'shl-create', profileId: profile.id, result: { error: { '': [HEALTH_LINK_MESSAGES.tooMany] } } },
		})
		const [newest, next] = await listHealthLinks(user.id)
		await post(cookie, { intent: 'shl-revoke', linkId: String(newest!.id) })
		await db
			.update(s.smartHealthLinks)
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where(eq(s.smartHealthLinks.id, next!.id))
		expect(await create(cookie, profile.id)).toHaveRedirect(`${TAB}#health-links`)
		expect(await create(cookie, profile.id)).toHaveRedirect(`${TAB}#health-links`)
		expect((await create(cookie, profile.id)).status).toBe(400)
		const states = (await listHealthLinks(user.id)).map((l) => l.state)
		expect(states.filter((state) => state === 'active')).toHaveLength(MAX_ACTIVE_LINKS)
	})

	test('Revoke is a link to a question; only its own submit revokes, and the tab comes back with focus on the link', async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		await create(cookie, profile.id, { label: 'ED visit' })
		const [link] = await listHealthLinks(user.id)
		const tab = async (query: string) => {
			const cards = ((await call(qrPage.loader, getRequest(`${TAB}${query}`, cookie))).result as Awaited<ReturnType<typeof qrPage.loader>>)
				.healthLinks
			return renderAt(`${TAB}${query}`, () => createElement(HealthLinks, { cards }))
		}
		const shown = await tab('?code=7')
		expect(tagsWith(shown, { 'aria-describedby': `shl-link-${link!.id}` })).toMatchObject([
			{ tag: 'a', href: `${TAB}?code=7&revoke=${link!.id}` },
		])
		expect(tagsWith(shown, { value: 'shl-revoke' })).toEqual([])

		const asked = await tab(`?code=7&revoke=${link!.id}`)
		expect(asked).toContain('Revoke this SMART Health Link?')
		expect(tagsWith(asked, { autofocus: '' })).toMatchObject([
			{ tag: 'a', 'aria-label': 'Close', href: `${TAB}?code=7#revoke-${link!.id}` },
		])
		expect(tagsWith(asked, { name: 'linkId', value: String(link!.id) })).toHaveLength(1)
		expect(tagsWith(asked, { name: 'intent', value: 'shl-revoke' })).toMatchObject([{ tag: 'button', type: 'submit' }])
		expect(await listHealthLinks(user.id)).toMatchObject([{ state: 'active' }])

		await post(cookie, { intent: 'shl-revoke', linkId: String(link!.id) })
		const after = await tab(`?revoked=${link!.id}`)
		expect(tagsWith(after, { autofocus: '' })).toMatchObject([{ tag: 'p', id: `shl-link-${link!.id}-state`, tabindex: '-1' }])
		// A revoked link is not asked about again, and has no Revoke.
		const again = await tab(`?revoke=${link!.id}`)
		expect(again).not.toContain('Revoke this SMART Health Link?')
		expect(tagsWith(again, { 'aria-describedby': `shl-link-${link!.id}` })).toEqual([])
	})

	test('another person’s profile or link is a 404, like an unknown one; nothing is made or revoked', async () => {
		const { user, profile } = await fullProfile()
		const owner = await sessionCookie(user.id)
		await create(owner, profile.id)
		const [link] = await listHealthLinks(user.id)
		const stranger = await sessionCookie((await createUser()).id)
		for (const profileId of [profile.id, 2_000_000_000]) expect((await create(stranger, profileId)).status, String(profileId)).toBe(404)
		for (const linkId of [String(link!.id), '2000000000', 'abc'])
			expect((await post(stranger, { intent: 'shl-revoke', linkId })).status, linkId).toBe(404)
		expect(await listHealthLinks(user.id)).toMatchObject([{ state: 'active' }])
	})

	test('the access record names link creations and revocations', async () => {
		const { user, profile } = await fullProfile()
		const cookie = await sessionCookie(user.id)
		await create(cookie, profile.id)
		const [link] = await listHealthLinks(user.id)
		await post(cookie, { intent: 'shl-revoke', linkId: String(link!.id) })
		const changes = await db.select().from(s.profileAudit).where(eq(s.profileAudit.profileId, profile.id)).orderBy(s.profileAudit.id)
		expect(changes.filter((c) => c.action.startsWith('shl-'))).toMatchObject([
			{ kind: 'change', action: 'shl-created', actorRole: 'owner', detail: `SMART Health Link #${link!.id}` },
			{ kind: 'change', action: 'shl-revoked', actorRole: 'owner', detail: `SMART Health Link #${link!.id}` },
		])
	})

	test('the tab’s other forms still reach its own action', async () => {
		const user = await createUser()
		const cookie = await sessionCookie(user.id)
		expect(await post(cookie, { intent: 'explode' })).toMatchObject({
			status: 400,
			body: { intent: 'explode', result: { error: { '': [UNKNOWN_ACTION] } } },
		})
	})
})
