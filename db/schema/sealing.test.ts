import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { columnSealing, registerColumnSealing } from './sealing.ts'

const run = promisify(execFile)

test('importing the schema reads no environment: a configuration the app would refuse does not stop it', { timeout: 60_000 }, async () => {
	const { stdout } = await run(
		process.execPath,
		['--import', 'tsx', '--input-type=module', '-e', "const s = await import('./db/schema.ts'); console.log(typeof s.emails)"],
		{ env: { ...process.env, DATA_ENCRYPTION_KEYS: 'not a key', SESSION_SECRET: '', PUBLIC_URL: 'not a url' } },
	)
	expect(stdout.trim()).toBe('object')
})

test('a sealed column uses the crypto the app registered', () => {
	const before = columnSealing()
	try {
		registerColumnSealing({ sealText: (plain, place) => `sealed:${place}:${plain}`, openText: (stored) => stored.split(':').pop()! })
		expect(columnSealing().sealText('asthma', 'profiles.notes')).toBe('sealed:profiles.notes:asthma')
	} finally {
		registerColumnSealing(before)
	}
})
