import { parseWithZod } from '@conform-to/zod/v4'
import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { z } from 'zod'
import { DomainError } from '#app/utils/errors.ts'
import { isDataResult } from './http.ts'
import { replyError, type ReplyErrorOptions } from './reply-error.server.ts'
import { requestToastContext } from './toast.server.ts'

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

test('a page may answer some refusals with its own status; a 404 given one stays on the form', async () => {
	const statuses = { 404: 400, 409: 400 } as const
	const taken = await replyError(args(), submitted(), new DomainError(409, 'That email is taken', 'email'), { statuses })
	expect(taken.init?.status).toBe(400)
	expect(taken.data.result.error).toEqual({ email: ['That email is taken'] })
	const limited = await replyError(args(), submitted(), new DomainError(429, 'Too many attempts', 'email', 30), { statuses })
	expect(limited.init?.status).toBe(429)
	const gone = await replyError(args(), submitted(), new DomainError(404, 'This link has expired'), { statuses: { 404: 404 } })
	expect(gone.init?.status).toBe(404)
	expect(gone.data.result.error).toEqual({ '': ['This link has expired'] })
})

test('a toast may word the refusal otherwise than the form does', async () => {
	const page = { request: new Request('http://localhost/medical-info', { method: 'POST' }), context: new RouterContextProvider() }
	const answer = await replyError(page, submitted(), new DomainError(400, 'This file is too large.', 'email'), {
		toast: { title: 'Upload Failed', description: 'Failed to upload document. Please try again.' },
	})
	expect(answer.data.result.error).toEqual({ email: ['This file is too large.'] })
	expect(page.context.get(requestToastContext)).toMatchObject({
		type: 'error',
		title: 'Upload Failed',
		description: 'Failed to upload document. Please try again.',
	})
})

test('a toast may have a fixed title and description, or no title: a string is the title over the refusal’s message', async () => {
	// A document request (no `.data`): the toast is kept for the page being rendered, where it can be read.
	const toastOf = async (toast: ReplyErrorOptions<Record<string, never>>['toast']) => {
		const call = { request: new Request('http://localhost/donate', { method: 'POST' }), context: new RouterContextProvider() }
		const answer = await replyError(call, submitted(), new DomainError(503, 'Payments are down'), { toast })
		expect(answer.init?.status).toBe(503)
		expect(answer.data.result.error).toEqual({ '': ['Payments are down'] })
		return call.context.get(requestToastContext)
	}
	expect(await toastOf('Error')).toMatchObject({ type: 'error', title: 'Error', description: 'Payments are down' })
	const fixed = await toastOf({ title: 'Error', description: 'Failed to process donation. Please try again.' })
	expect(fixed).toMatchObject({ type: 'error', title: 'Error', description: 'Failed to process donation. Please try again.' })
	const untitled = await toastOf({})
	expect(untitled).toMatchObject({ type: 'error', description: 'Payments are down' })
	expect(untitled?.title).toBeUndefined()
	expect(await toastOf({ description: 'Try again later' })).toMatchObject({ description: 'Try again later' })
})
