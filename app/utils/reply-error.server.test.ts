import { parseWithZod } from '@conform-to/zod/v4'
import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { isDataResult } from './http.ts'
import { replyError } from './reply-error.server.ts'

const schema = z.object({ email: z.string(), password: z.string() })
const submitted = () => {
	const form = new FormData()
	form.set('email', 'a@example.com')
	form.set('password', 'secret')
	return parseWithZod(form, { schema })
}
const args = () => ({ request: new Request('http://localhost/account.data', { method: 'POST' }), context: new RouterContextProvider() })

test('a refusal with a field comes back beside it, with what was typed, its status and a toast', async () => {
	const answer = await replyError(args(), submitted(), new DomainError(409, 'That email is taken', 'email'), {
		toast: 'Update Failed',
		extra: { intent: 'email' },
	})
	expect(isDataResult(answer)).toBe(true)
	expect(answer.init?.status).toBe(409)
	expect(answer.data.intent).toBe('email')
	expect(answer.data.result.error).toEqual({ email: ['That email is taken'] })
	expect(answer.data.result.initialValue).toMatchObject({ email: 'a@example.com' })
	expect(new Headers(answer.init?.headers).get('set-cookie')).toContain('toast')
})

test('a refusal without a field is the form’s error, hidden fields are not sent back, and Retry-After is kept', async () => {
	const answer = await replyError(args(), submitted(), new DomainError(429, 'Too many attempts', undefined, 30), {
		hideFields: ['password'],
	})
	expect(answer.init?.status).toBe(429)
	expect(answer.data.result.error).toEqual({ '': ['Too many attempts'] })
	expect(answer.data.result.initialValue).not.toHaveProperty('password')
	expect(new Headers(answer.init?.headers).get('retry-after')).toBe('30')
})

test('a 404 is the not-found page, and what is not a refusal is thrown on', async () => {
	const notFound = await replyError(args(), submitted(), new DomainError(404, 'Profile not found')).catch((e: unknown) => e)
	expect(isDataResult(notFound) && notFound.init?.status).toBe(404)
	await expect(replyError(args(), submitted(), new TypeError('bug'))).rejects.toThrow('bug')
})

test('a 404 for a row the page listed stays on the page when asked, as a refusal beside its field', async () => {
	const answer = await replyError(args(), submitted(), new DomainError(404, 'Account not found'), {
		field: 'email',
		toast: 'Update Failed',
		notFoundOnForm: true,
	})
	expect(answer.init?.status).toBe(404)
	expect(answer.data.result.error).toEqual({ email: ['Account not found'] })
	expect(new Headers(answer.init?.headers).get('set-cookie')).toContain('toast')
})
