import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { MedicalInfoScreen } from '#app/routes/medical/medical-info-screen.tsx'
import { medicalInfoLoader, type MedicalInfoData } from '#app/routes/medical/medical-info.server.ts'
import { call, getRequest, unwrap } from './factories.ts'

// Pages as the server renders them (what a browser without JavaScript gets), and their tags read back.

/** `Component` rendered at `url`, inside a router (for its links and forms). */
export function renderAt(url: string, Component: () => ReactNode) {
	const Stub = createRoutesStub([{ path: new URL(url, 'http://localhost').pathname, Component }])
	return renderToString(<Stub initialEntries={[url]} />)
}

/** The Medical Information screen at `/dashboard?query`, with what its loader read. */
export async function renderMedicalScreen(cookie: string, query: string) {
	const url = `/dashboard?${query}`
	const { result } = await call(medicalInfoLoader, getRequest(url, cookie))
	const data = (await unwrap(result)).body as MedicalInfoData
	return { html: renderAt(url, () => <MedicalInfoScreen data={data} failure={null} base="/dashboard" />), data }
}

export const decode = (text: string) =>
	text
		.replace(/&quot;/g, '"')
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')

export function attributes(tag: string) {
	const found: Record<string, string> = {}
	for (const [, name, value] of tag.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g)) found[name!] = decode(value ?? '')
	return found
}

/** The attributes of each opening tag of `html` that has all of `wanted` (`''` for an attribute without a value); `tag` is its element. */
export function tagsWith(html: string, wanted: Record<string, string>) {
	return [...html.matchAll(/<[a-z][a-z0-9]*\b[^>]*>/g)]
		.map(([tag]) => ({ ...attributes(tag), tag: tag.slice(1).split(/[\s>]/)[0]! }))
		.filter((tag) => Object.entries(wanted).every(([name, value]) => (tag as Record<string, string>)[name] === value))
}
