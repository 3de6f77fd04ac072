import { call, getRequest, jsonRequest, multipartRequest, unwrap } from './factories.ts'

export type Endpoint = (args: never) => unknown
export type Body = Record<string, unknown> & { message?: string; errors?: Record<string, string[]> }

/** Calls a JSON endpoint's loader or action and returns its status, headers and parsed body. */
export async function send(handler: Endpoint, request: Request, params: Record<string, string> = {}) {
	const response = await unwrap((await call(handler, request, params)).result)
	return { ...response, body: response.body as Body }
}
export const get = (handler: Endpoint, path: string, cookie?: string, params?: Record<string, string>) =>
	send(handler, getRequest(path, cookie), params)
export const json = (handler: Endpoint, method: string, path: string, body: unknown, cookie?: string, params?: Record<string, string>) =>
	send(handler, jsonRequest(path, body, { cookie, method }), params)
export const upload = (handler: Endpoint, path: string, fields: Record<string, string>, files: Record<string, File>, cookie?: string) =>
	send(handler, multipartRequest(path, fields, files, cookie))
