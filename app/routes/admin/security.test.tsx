import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { env } from '#app/utils/env.server.ts'
import { UNKNOWN_ACTION } from '#app/utils/errors.ts'
import { call, createUser, formRequest, getRequest, sessionCookie, unwrap } from '#tests/factories.ts'
import * as security from './security.tsx'

const folders: string[] = []
afterAll(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })))
const saved = env.BACKUP_DIR
afterEach(() => {
	env.BACKUP_DIR = saved
})

/** A BACKUP_DIR (new, so nothing cached is about it) holding one backup made `hours` ago, or none. */
function backupDir(hours?: number) {
	const dir = mkdtempSync(join(tmpdir(), 'hmh-security-page-'))
	folders.push(dir)
	if (hours !== undefined) {
		const name = new Date(Date.now() - hours * 3600_000)
			.toISOString()
			.replace(/\.\d{3}Z$/, 'Z')
			.replaceAll(':', '')
		mkdirSync(join(dir, name))
		writeFileSync(join(dir, name, 'manifest.json'), '{}')
	}
	env.BACKUP_DIR = dir
	return dir
}

type StubComponent = Parameters<typeof createRoutesStub>[0][number]['Component']

/** The Security tab as the owner's browser gets it without JavaScript. */
async function page(actionData?: unknown) {
	const owner = await createUser()
	const cookie = await sessionCookie(owner.id, { adminTokenValid: true, adminTokenUserId: owner.id })
	const { result } = await call(security.loader, getRequest('/admin/security', cookie))
	const Stub = createRoutesStub([{ id: 'page', path: '/admin/security', Component: security.default as StubComponent }])
	const hydrationData = { loaderData: { page: result }, ...(actionData ? { actionData: { page: actionData } } : {}) }
	return renderToString(<Stub initialEntries={['/admin/security']} hydrationData={hydrationData} />).replaceAll('<!-- -->', '')
}

describe('/admin/security: the backups item', () => {
	test('a backup made 3 hours ago: complete, with its age, checked by the server', async () => {
		backupDir(3)
		const html = await page()
		expect(html).toMatch(/✓ <\/span>Database backups configured<span class="sr-only"> \(complete\)/)
		expect(html).toContain('Newest backup: 3 hours ago.')
		expect(html).not.toContain('⚠')
	})

	test('none in the last 26 hours, or none at all: a warning, not complete', async () => {
		backupDir(30)
		const stale = await page()
		expect(stale).toMatch(/○ <\/span>Database backups configured<span class="sr-only"> \(not complete\)/)
		expect(stale).toContain('⚠ </span>Newest backup: 30 hours ago, none in the last 26 hours.')

		const dir = backupDir()
		expect(await page()).toContain(`⚠ </span>No backup found in ${dir}.`)
	})
})

describe('/admin/security action: one schema, every intent', () => {
	async function post(fields: Record<string, string>) {
		const owner = await createUser()
		const cookie = await sessionCookie(owner.id, { adminTokenValid: true, adminTokenUserId: owner.id })
		return unwrap((await call(security.action, formRequest('/admin/security', fields, { cookie }))).result)
	}

	test('an unknown or missing intent is a 400 with a message on the page, never a redirect', async () => {
		for (const fields of [{ intent: 'nope', code: '123456' }, {}] as Record<string, string>[]) {
			const answer = await post(fields)
			expect(answer.status).toBe(400)
			expect(answer.body).toMatchObject({ intent: null, result: { error: { intent: [UNKNOWN_ACTION] } } })
			expect(answer.headers.get('location')).toBeNull()
		}
		backupDir(3)
		expect(await page({ intent: null, result: { error: { intent: [UNKNOWN_ACTION] } }, recoveryCodes: null })).toContain(UNKNOWN_ACTION)
	})

	test('an item that is not on the list is refused with its reason', async () => {
		const answer = await post({ intent: 'checklist', id: 'no-such-item', done: 'true' })
		expect(answer.status).toBe(400)
		expect(answer.body).toMatchObject({ intent: 'checklist', result: { error: { id: [expect.any(String)] } } })
	})
})
