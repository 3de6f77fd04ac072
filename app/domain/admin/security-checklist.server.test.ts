import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { ownerSettings } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { env } from '#app/utils/env.server.ts'
import { createUser } from '#tests/factories.ts'
import {
	buildChecklist,
	isStrongSessionSecret,
	OWNER_NOT_FOUND,
	securityChecklist,
	setChecklistItem,
	type SecurityConfig,
} from './security-checklist.server.ts'
import { AUTOMATIC_SECURITY_ITEM, SECURITY_COMPLETE_MESSAGE, SECURITY_ITEMS, UNKNOWN_SECURITY_ITEM } from './security-items.ts'

const STRONG = 'q8Vz2LmR4xT7wK1pN6bY3cF9hJ5dS0gE-strong'
const good: SecurityConfig = {
	PUBLIC_URL: 'https://hitmehelpers.org',
	SESSION_SECRET: STRONG,
	SMTP_URL: 'smtps://mail.example.org:465',
	S3_BUCKET: 'hmh-uploads',
	ADMIN_TOKEN: undefined,
}
const none: SecurityConfig = { PUBLIC_URL: 'http://localhost:3000' }
const NOW = new Date('2026-11-27T12:00:00Z')
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600_000)
const BUCKET = 's3://hmh-backups/nightly/'
const lastNight = { newest: { at: hoursAgo(9), location: `${BUCKET}2026-11-27T030000Z` }, now: NOW, location: BUCKET }
const completeOf = (list: ReturnType<typeof buildChecklist>) => Object.fromEntries(list.items.map((i) => [i.id, i.complete]))

async function refusal(promise: Promise<unknown>) {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error).toBeInstanceOf(DomainError)
	const { status, message, field } = error as DomainError
	return { status, message, field }
}

describe('the items', () => {
	test('seven, in order, with titles and one-sentence descriptions; one is manual', () => {
		expect(SECURITY_ITEMS.map((i) => [i.id, i.title])).toEqual([
			['two-factor', 'Admin two-factor login'],
			['https', 'HTTPS everywhere'],
			['session-secret', 'Strong session secret'],
			['backups', 'Database backups configured'],
			['outgoing-mail', 'Outgoing e-mail delivered'],
			['file-storage', 'Uploaded files in durable storage'],
			['admin-token', 'Admin token kept secret'],
		])
		for (const item of SECURITY_ITEMS) expect(item.description).toMatch(/^[A-Z][^]*\.$/)
		expect(SECURITY_ITEMS.filter((i) => i.manual).map((i) => i.id)).toEqual(['admin-token'])
		expect(SECURITY_COMPLETE_MESSAGE).toBe('All security measures are in place.')
	})

	test('session secrets: long, not a known value, not a placeholder, every rotated one too', () => {
		expect(isStrongSessionSecret(STRONG)).toBe(true)
		expect(isStrongSessionSecret(`${STRONG},${STRONG.split('').reverse().join('')}`)).toBe(true)
		for (const weak of [
			undefined,
			'',
			'test-session-secret',
			'e2e-session-secret',
			'bench',
			STRONG.slice(0, 31),
			'a'.repeat(64),
			'abababababababababababababababababab',
			'change-me-please-to-something-long-and-random',
			`${STRONG},short`,
			`short,${STRONG}`,
		])
			expect(isStrongSessionSecret(weak), String(weak)).toBe(false)
	})
})

describe('the checklist from what the server sees', () => {
	test('everything in place, a backup made last night and the manual item ticked: 7 of 7, 100%', () => {
		const list = buildChecklist({ twoFactorEnabled: true, ticked: { 'admin-token': true }, backups: lastNight }, good)
		expect(list).toMatchObject({ completed: 7, total: 7, percent: 100 })
		expect(list.items.map((i) => [i.id, i.automatic])).toEqual([
			['two-factor', true],
			['https', true],
			['session-secret', true],
			['backups', true],
			['outgoing-mail', true],
			['file-storage', true],
			['admin-token', false],
		])
		expect(list.items[0]).toEqual({
			id: 'two-factor',
			title: 'Admin two-factor login',
			description: SECURITY_ITEMS[0]!.description,
			complete: true,
			automatic: true,
		})
	})

	test('nothing configured: automatic items are incomplete, and ticks cannot complete them', () => {
		const ticked = Object.fromEntries(SECURITY_ITEMS.map((i) => [i.id, true]))
		const list = buildChecklist({ twoFactorEnabled: false, ticked }, none)
		expect(completeOf(list)).toEqual({
			'two-factor': false,
			https: false,
			'session-secret': false,
			backups: false,
			'outgoing-mail': false,
			'file-storage': false,
			'admin-token': true,
		})
		expect(list).toMatchObject({ completed: 1, percent: 14 })
	})

	test('each automatic item follows its own setting', () => {
		const base = { twoFactorEnabled: false, ticked: {} }
		expect(completeOf(buildChecklist({ twoFactorEnabled: true, ticked: {} }, none))['two-factor']).toBe(true)
		expect(completeOf(buildChecklist(base, { ...none, PUBLIC_URL: 'HTTPS://example.org' })).https).toBe(true)
		expect(completeOf(buildChecklist(base, { ...none, SESSION_SECRET: STRONG }))['session-secret']).toBe(true)
		expect(completeOf(buildChecklist(base, { ...none, SESSION_SECRET: 'test-session-secret' }))['session-secret']).toBe(false)
		expect(completeOf(buildChecklist(base, { ...none, SMTP_URL: 'smtp://localhost:25' }))['outgoing-mail']).toBe(true)
		expect(completeOf(buildChecklist(base, { ...none, S3_BUCKET: 'b' }))['file-storage']).toBe(true)
		expect(buildChecklist(base, good)).toMatchObject({ completed: 4, percent: 57 })
	})

	test('backups: the newest one’s age, found by the server; none in the last 26 hours or none at all is a warning', () => {
		const backupsItem = (backups: Parameters<typeof buildChecklist>[0]['backups']) =>
			buildChecklist({ twoFactorEnabled: false, ticked: { backups: true }, backups }, none).items.find((i) => i.id === 'backups')
		expect(backupsItem(lastNight)).toMatchObject({ automatic: true, complete: true, finding: 'Newest backup: 9 hours ago.' })
		const at = (hours: number) => backupsItem({ ...lastNight, newest: { at: hoursAgo(hours), location: `${BUCKET}x` } })
		expect(at(26)).toMatchObject({ complete: true, finding: 'Newest backup: 26 hours ago.' })
		expect(at(27)).toMatchObject({ complete: false, finding: 'Newest backup: 27 hours ago, none in the last 26 hours.' })
		expect(at(24 * 9)).toMatchObject({ complete: false, finding: 'Newest backup: 9 days ago, none in the last 26 hours.' })
		expect(at(1 / 60)).toMatchObject({ complete: true, finding: 'Newest backup: 1 minute ago.' })
		expect(backupsItem({ ...lastNight, newest: null })).toMatchObject({ complete: false, finding: `No backup found in ${BUCKET}.` })
		// Not looked for (no state given): incomplete, whatever was ticked by hand before the server checked it.
		expect(backupsItem(undefined)).toMatchObject({ complete: false })
		expect(backupsItem(undefined)?.finding).toBeUndefined()
	})

	test('a short admin token is flagged by the server: automatic and incomplete, whatever was ticked', () => {
		const ticked = { 'admin-token': true }
		const weak = buildChecklist({ twoFactorEnabled: false, ticked }, { ...none, ADMIN_TOKEN: 'x'.repeat(23) }).items.at(-1)
		expect(weak).toMatchObject({ id: 'admin-token', automatic: true, complete: false })
		const long = buildChecklist({ twoFactorEnabled: false, ticked }, { ...none, ADMIN_TOKEN: 'x'.repeat(24) }).items.at(-1)
		expect(long).toMatchObject({ id: 'admin-token', automatic: false, complete: true })
		const unticked = buildChecklist({ twoFactorEnabled: false, ticked: {} }, none).items.at(-1)
		expect(unticked).toMatchObject({ automatic: false, complete: false })
	})
})

describe("the owner's checklist", () => {
	test("two-factor is this owner's own state", async () => {
		const owner = await createUser()
		const other = await createUser()
		expect((await securityChecklist(owner.id)).items[0]).toMatchObject({ id: 'two-factor', complete: false })
		await db.insert(ownerSettings).values({ userId: other.id, totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: new Date() })
		expect((await securityChecklist(owner.id)).items[0]!.complete).toBe(false)
		await db.insert(ownerSettings).values({ userId: owner.id, totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: null })
		expect((await securityChecklist(owner.id)).items[0]!.complete).toBe(false)
		await db.update(ownerSettings).set({ totpEnabledAt: new Date() }).where(eq(ownerSettings.userId, owner.id))
		const list = await securityChecklist(owner.id)
		expect(list.items[0]!.complete).toBe(true)
		// The test environment: http://localhost, the tests' session secret, no SMTP, no S3.
		expect(completeOf(list)).toMatchObject({ https: false, 'session-secret': false, 'outgoing-mail': false, 'file-storage': false })
		expect(list.total).toBe(7)
	})

	test('the manual item is ticked and unticked, merged with the others, kept with the two-factor settings', async () => {
		const owner = await createUser()
		await db.insert(ownerSettings).values({ userId: owner.id, totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: new Date() })
		const before = await securityChecklist(owner.id)
		const ticked = await setChecklistItem(owner.id, 'admin-token', true)
		expect(completeOf(ticked)['admin-token']).toBe(true)
		expect(ticked.completed).toBe(before.completed + 1)
		expect(ticked.percent).toBe(Math.round((ticked.completed / 7) * 100))
		const unticked = await setChecklistItem(owner.id, 'admin-token', false)
		expect(completeOf(unticked)).toMatchObject({ 'admin-token': false, 'two-factor': true })
		const row = await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })
		expect(row).toMatchObject({ checklist: { 'admin-token': false }, totpSecret: 'JBSWY3DPEHPK3PXP' })
	})

	test('an owner without settings gets a row on the first tick', async () => {
		const owner = await createUser()
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toBeUndefined()
		await setChecklistItem(owner.id, 'admin-token', true)
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toMatchObject({
			checklist: { 'admin-token': true },
			totpEnabledAt: null,
		})
	})

	test('automatic or unknown items are a 400, an unknown owner a 404; nothing is stored', async () => {
		const owner = await createUser()
		for (const id of ['two-factor', 'https', 'session-secret', 'backups', 'outgoing-mail', 'file-storage'])
			expect(await refusal(setChecklistItem(owner.id, id, true))).toEqual({ status: 400, message: AUTOMATIC_SECURITY_ITEM, field: 'id' })
		for (const id of ['nope', '', '__proto__', 'Backups'])
			expect(await refusal(setChecklistItem(owner.id, id, true))).toEqual({ status: 400, message: UNKNOWN_SECURITY_ITEM, field: 'id' })
		expect(await refusal(setChecklistItem(randomUUID(), 'admin-token', true))).toMatchObject({ status: 404, message: OWNER_NOT_FOUND })
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toBeUndefined()

		const saved = env.ADMIN_TOKEN
		env.ADMIN_TOKEN = 'short-token'
		try {
			expect(await refusal(setChecklistItem(owner.id, 'admin-token', true))).toMatchObject({
				status: 400,
				message: AUTOMATIC_SECURITY_ITEM,
			})
			expect((await securityChecklist(owner.id)).items.at(-1)).toMatchObject({ automatic: true, complete: false })
		} finally {
			env.ADMIN_TOKEN = saved
		}
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toBeUndefined()
	})
})
