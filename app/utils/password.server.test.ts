import { expect, test } from 'vitest'
import { hashPassword, verifyPassword } from './password.server.ts'

test('a scrypt hash verifies only its own password and is salted', async () => {
	const hash = await hashPassword('abcdefg1!')
	expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/)
	expect(await verifyPassword('abcdefg1!', hash)).toBe(true)
	expect(await verifyPassword('abcdefg1?', hash)).toBe(false)
	expect(await hashPassword('abcdefg1!')).not.toBe(hash)
	expect(await verifyPassword('anything', null)).toBe(false)
})
