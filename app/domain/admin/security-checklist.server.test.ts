import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { db } from '#db/client.ts'
import { ownerSettings } from '#db/schema.ts'
import { DomainError } from '#app/domain/errors.ts'
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
	test('seven, in order, with titles and one-sentence descriptions; two are manual', () => {
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
		expect(SECURITY_ITEMS.filter((i) => i.manual).map((i) => i.id)).toEqual(['backups', 'admin-token'])
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
	test('everything in place and both manual items ticked: 7 of 7, 100%', () => {
		const list = buildChecklist({ twoFactorEnabled: true, ticked: { backups: true, 'admin-token': true } }, good)
		expect(list).toMatchObject({ completed: 7, total: 7, percent: 100 })
		expect(list.items.map((i) => [i.id, i.automatic])).toEqual([
			['two-factor', true],
			['https', true],
			['session-secret', true],
			['backups', false],
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
			backups: true,
			'outgoing-mail': false,
			'file-storage': false,
			'admin-token': true,
		})
		expect(list).toMatchObject({ completed: 2, percent: 29 })
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

	test('manual items are ticked and unticked, merged with the others, kept with the two-factor settings', async () => {
		const owner = await createUser()
		await db.insert(ownerSettings).values({ userId: owner.id, totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: new Date() })
		const before = await securityChecklist(owner.id)
		const ticked = await setChecklistItem(owner.id, 'backups', true)
		expect(completeOf(ticked).backups).toBe(true)
		expect(ticked.completed).toBe(before.completed + 1)
		expect(ticked.percent).toBe(Math.round((ticked.completed / 7) * 100))
		await setChecklistItem(owner.id, 'admin-token', true)
		const unticked = await setChecklistItem(owner.id, 'backups', false)
		expect(completeOf(unticked)).toMatchObject({ backups: false, 'admin-token': true, 'two-factor': true })
		const row = await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })
		expect(row).toMatchObject({ checklist: { backups: false, 'admin-token': true }, totpSecret: 'JBSWY3DPEHPK3PXP' })
	})

	test('an owner without settings gets a row on the first tick', async () => {
		const owner = await createUser()
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toBeUndefined()
		await setChecklistItem(owner.id, 'backups', true)
		expect(await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, owner.id) })).toMatchObject({
			checklist: { backups: true },
			totpEnabledAt: null,
		})
	})

	test('automatic or unknown items are a 400, an unknown owner a 404; nothing is stored', async () => {
		const owner = await createUser()
		for (const id of ['two-factor', 'https', 'session-secret', 'outgoing-mail', 'file-storage'])
			expect(await refusal(setChecklistItem(owner.id, id, true))).toEqual({ status: 400, message: AUTOMATIC_SECURITY_ITEM, field: 'id' })
		for (const id of ['nope', '', '__proto__', 'Backups'])
			expect(await refusal(setChecklistItem(owner.id, id, true))).toEqual({ status: 400, message: UNKNOWN_SECURITY_ITEM, field: 'id' })
		expect(await refusal(setChecklistItem(randomUUID(), 'backups', true))).toMatchObject({ status: 404, message: OWNER_NOT_FOUND })
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
