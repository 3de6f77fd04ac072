import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

/*
 * `npm run size`: the first-load JavaScript of every page in app/routes.ts, read from the client build's React Router
 * manifest (build/client/assets/manifest-<hash>.js, what the page loads as window.__reactRouterManifest).
 * A page's first load is the entry module, then every route it matches (root, its layouts, itself) with their static
 * imports, each file counted once, at gzip level 9. Exits 1 when a page is over the budget.
 */

const BUDGET_KB = 125
const clientDir = resolve(import.meta.dirname, '..', 'build', 'client')

type ManifestRoute = {
	id: string
	parentId?: string
	path?: string
	index?: boolean
	hasDefaultExport: boolean
	module: string
	imports?: string[]
}
type Manifest = { entry: { module: string; imports?: string[] }; routes: Record<string, ManifestRoute> }

function readManifest(): Manifest {
	const assets = join(clientDir, 'assets')
	const file = existsSync(assets) ? readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name)) : undefined
	if (!file) {
		console.error('No client build (build/client/assets/manifest-*.js): run `npm run build` first.')
		process.exit(2)
	}
	const source = readFileSync(join(assets, file), 'utf8')
	return JSON.parse(source.slice(source.indexOf('=') + 1).replace(/;\s*$/, '')) as Manifest
}

const gzipSizes = new Map<string, number>()
function gzipSize(url: string) {
	let size = gzipSizes.get(url)
	if (size === undefined) gzipSizes.set(url, (size = gzipSync(readFileSync(join(clientDir, url)), { level: 9 }).length))
	return size
}
const total = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gzipSize(file), 0)
const kb = (bytes: number) => (bytes / 1024).toFixed(1)

const manifest = readManifest()
const routes = Object.values(manifest.routes)
/** A route's chunks beyond what is already counted: its module and, under split route modules, its client-side parts. */
const chunks = (route: ManifestRoute) =>
	Object.entries(route).flatMap(([key, value]) =>
		(key === 'module' || key.endsWith('Module')) && typeof value === 'string' ? [value] : key === 'imports' ? (value as string[]) : [],
	)
const matches = (route: ManifestRoute): ManifestRoute[] => [...(route.parentId ? matches(manifest.routes[route.parentId]!) : []), route]
const urlPath = (route: ManifestRoute) =>
	'/' +
	matches(route)
		.map((match) => (match.index ? '' : (match.path ?? '')))
		.filter(Boolean)
		.join('/')

const entry = [manifest.entry.module, ...(manifest.entry.imports ?? [])]
const rows = routes
	// A pathless layout is measured with each of its pages; a resource route sends no script.
	.filter((route) => route.id !== 'root' && route.hasDefaultExport && (route.path !== undefined || route.index))
	.map((route) => ({ id: route.id, path: urlPath(route), bytes: total(new Set([...entry, ...matches(route).flatMap(chunks)])) }))
	.sort((a, b) => b.bytes - a.bytes)

const over = rows.filter((row) => row.bytes > BUDGET_KB * 1024)
const idWidth = Math.max(...rows.map((row) => row.id.length))
console.log(`first-load JavaScript per page, KB gzip (budget ${BUDGET_KB} KB)`)
for (const row of rows) {
	console.log(`${kb(row.bytes).padStart(6)}  ${row.id.padEnd(idWidth)}  ${row.path}${row.bytes > BUDGET_KB * 1024 ? '  OVER BUDGET' : ''}`)
}
const resources = routes.filter((route) => !route.hasDefaultExport)
// A resource route's module is an empty stub in the client build, unless it exports something besides its loader and
// action: then that export and all it imports (server code included) are built for the browser, and the bundler's
// shared chunks shift for every page.
const leaking = resources.filter((route) => total(chunks(route)) > 100)
const rootOnly = new Set([...entry, ...chunks(manifest.routes.root!)])
console.log(
	`entry ${kb(total(entry))} KB, entry + root ${kb(total(rootOnly))} KB; ${resources.length - leaking.length} of ${resources.length} resource routes send no script`,
)
for (const route of leaking)
	console.error(
		`${route.id} sends ${kb(total(chunks(route)))} KB of script: move its exports other than loader and action to a module of its own`,
	)
if (over.length) console.error(`${over.length} of ${rows.length} pages over ${BUDGET_KB} KB: ${over.map((row) => row.path).join(' ')}`)
if (over.length || leaking.length) process.exit(1)
console.log(`all ${rows.length} pages within ${BUDGET_KB} KB`)
