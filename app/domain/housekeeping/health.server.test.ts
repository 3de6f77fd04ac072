import { describe, expect, test } from 'vitest'
import { checkHealth } from './health.server.ts'

const never = () => new Promise(() => {})
const fails = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=secret'))

describe('checkHealth', () => {
	test('the database and the embedded storage answer: ok', async () => {
		expect(await checkHealth()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' })
	})

	test('a failing or silent part makes the whole unavailable, and names only the part', async () => {
		expect(await checkHealth({ database: fails })).toEqual({ status: 'unavailable', database: 'unreachable', storage: 'ok' })
		const started = Date.now()
		expect(await checkHealth({ files: never, timeoutMs: 200 })).toEqual({ status: 'unavailable', database: 'ok', storage: 'unreachable' })
		expect(Date.now() - started).toBeLessThan(2000)
		const both = await checkHealth({ database: fails, files: fails })
		expect(both).toEqual({ status: 'unavailable', database: 'unreachable', storage: 'unreachable' })
		expect(JSON.stringify(both)).not.toMatch(/secret|ECONNREFUSED|10\.0\.0\.5/)
	})
})
