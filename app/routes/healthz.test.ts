import { expect, test } from 'vitest'
import { loader } from './healthz.ts'

test('GET /healthz answers 200 with each part ok, never cached, nothing secret', async () => {
	const response = (await loader({ request: new Request('http://localhost/healthz') } as never)) as Response
	expect(response.status).toBe(200)
	expect(response.headers.get('cache-control')).toBe('no-store')
	expect(await response.json()).toEqual({ status: 'ok', database: 'ok', storage: 'ok' })
})
