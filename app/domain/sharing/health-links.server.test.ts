import { describe, expect, test } from 'vitest'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { fullProfile } from '#tests/profiles.ts'
import { createHealthLink, listHealthLinks, manifestFile, openManifest } from './health-links.server.ts'
import { MAX_ACTIVE_LINKS } from './options.ts'
import { decodeShlink, encodeShlink } from './shlink.ts'

const reader = { ipAddress: '198.51.100.9', place: null }

describe('SMART Health Links in the domain', () => {
	test('links made at the same moment are counted one after the other: never more than the limit', async () => {
		const { user, profile } = await fullProfile()
		for (let i = 0; i < MAX_ACTIVE_LINKS - 1; i++) await createHealthLink(user.id, profile.id, { expires: '1d' })
		const raced = await Promise.allSettled([1, 2, 3].map(() => createHealthLink(user.id, profile.id, { expires: '1d' })))
		expect(raced.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		for (const r of raced.filter((r) => r.status === 'rejected'))
			expect((r as PromiseRejectedResult).reason).toMatchObject({ name: 'DomainError', status: 409 })
		expect((await listHealthLinks(user.id)).filter((l) => l.state === 'active')).toHaveLength(MAX_ACTIVE_LINKS)
	})

	test("another person's profile is unknown", async () => {
		const { profile } = await fullProfile()
		const { user: stranger } = await fullProfile()
		await expect(createHealthLink(stranger.id, profile.id, { expires: '1d' })).rejects.toBeInstanceOf(DomainError)
		await expect(createHealthLink(stranger.id, profile.id, { expires: '1d' })).rejects.toMatchObject({ status: 404 })
	})

	test('the payload reads back from the link alone or after a viewer’s address', () => {
		const payload = {
			url: `${env.PUBLIC_URL}/shl/${'a'.repeat(43)}`,
			key: 'k'.repeat(43),
			exp: 1_900_000_000,
			flag: 'P',
			label: 'Zoë',
			v: 1 as const,
		}
		const link = encodeShlink(payload)
		expect(link.startsWith('shlink:/')).toBe(true)
		expect(decodeShlink(link)).toEqual(payload)
		expect(decodeShlink(`https://viewer.example.org/#${link}`)).toEqual(payload)
		expect(Object.keys(decodeShlink(encodeShlink({ url: payload.url, key: payload.key, v: 1 })))).toEqual(['url', 'key', 'v'])
	})

	test('a file address works only as signed and within its five minutes', async () => {
		const { user, profile } = await fullProfile()
		const { manifestId } = await createHealthLink(user.id, profile.id, { expires: '1d' })
		const answer = await openManifest(manifestId, { recipient: 'Clinic', embeddedLengthMax: 10 }, reader)
		if (answer.status !== 'ok') throw new Error(answer.status)
		const file = answer.manifest.files[0]!
		if (!('location' in file)) throw new Error('embedded')
		const token = new URL(file.location).searchParams.get('token')
		expect(await manifestFile(manifestId, token)).toMatch(/^ey[\w-]+\.\.[\w-]+\.[\w-]+\.[\w-]+$/)
		expect(await manifestFile(manifestId, token, Date.now() + 301_000)).toBeNull()
		expect(await manifestFile('b'.repeat(43), token)).toBeNull()
		expect(await manifestFile(manifestId, null)).toBeNull()
	})
})
