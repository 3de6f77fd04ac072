import { fileURLToPath } from 'node:url'
import {
	createRequestHandler,
	isRouteErrorResponse,
	RouterContextProvider,
	type EntryContext,
	type HandleErrorFunction,
	type ServerBuild,
} from 'react-router'
import routes from '#app/routes.ts'
import config from '../react-router.config.ts'
import { clientAddressContext } from '#app/utils/request.server.ts'
import { testAddress } from './factories.ts'

/** One entry of app/routes.ts, as route(), index() and layout() from @react-router/dev/routes build it. */
export type RouteEntry = { id?: string; file: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteEntry[] }

export type TableRoute = { id: string; parentId: string; file: string; path: string | undefined; index: boolean }

const APP = new URL('../app/', import.meta.url)

/** Every route of the table, layouts included, with the ids React Router gives them (file without extension unless named). */
export function routeTable(entries: RouteEntry[] = routes as RouteEntry[], parentId = 'root'): TableRoute[] {
	return entries.flatMap((entry) => {
		const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, '')
		const own: TableRoute = { id, parentId, file: entry.file, path: entry.path, index: entry.index === true }
		return [own, ...routeTable(entry.children ?? [], id)]
	})
}

/** The full path of a route (its layouts add nothing, its parents' paths do), as written in the table: `api/qr-codes/:id?`. */
export function fullPath(route: TableRoute, table: TableRoute[]): string {
	const parent = table.find((r) => r.id === route.parentId)
	const above = parent ? fullPath(parent, table) : ''
	const own = route.path ?? ''
	return [above, own].filter(Boolean).join('/')
}

/**
 * The document answer without React rendering: the status the router chose, and what the loaders, the action and the
 * error boundaries were given, as JSON, so a test reads the same outcome a browser would get in the page.
 */
const entryModule = {
	default(_request: Request, status: number, headers: Headers, context: EntryContext) {
		const state = context.staticHandlerContext
		const errors = Object.fromEntries(Object.entries(state.errors ?? {}).map(([id, error]) => [id, describeError(error as unknown)]))
		headers.set('content-type', 'application/json; charset=utf-8')
		return new Response(JSON.stringify({ loaderData: state.loaderData, actionData: state.actionData, errors }), { status, headers })
	},
	handleError: ((error, { request }) => {
		// As the app's own handleError: an answer a route chose (404, 405, a refusal) is no fault.
		if (!request.signal.aborted && !isRouteErrorResponse(error)) serverErrors.push(error)
	}) as HandleErrorFunction,
}

/** Errors a loader, action or middleware threw (not the answers they chose), newest last: a test reads and clears them. */
export const serverErrors: unknown[] = []

function describeError(error: unknown) {
	if (error && typeof error === 'object' && 'status' in error) return { status: error.status, data: (error as { data?: unknown }).data }
	return { message: error instanceof Error ? error.message : String(error) }
}

type RouteModule = { loader?: unknown; action?: unknown; default?: unknown }
const modules = new Map<string, Promise<RouteModule>>()

/** A route module of app/routes.ts by its file, as the table names it ('routes/files.ts'). */
export function routeModule(file: string): Promise<RouteModule> {
	let module = modules.get(file)
	if (!module) modules.set(file, (module = import(fileURLToPath(new URL(file, APP))) as Promise<RouteModule>))
	return module
}

let handler: Promise<(request: Request, address?: string) => Promise<Response>> | undefined

async function load() {
	const table: Array<Pick<TableRoute, 'id' | 'parentId' | 'path' | 'index' | 'file'>> = [
		{ id: 'root', parentId: '', path: '', index: false, file: 'root.tsx' },
		...routeTable(),
	]
	const routes: ServerBuild['routes'] = {}
	const manifest: Record<string, unknown> = {}
	for (const r of table) {
		const module = (await routeModule(r.file)) as NonNullable<ServerBuild['routes'][string]>['module']
		const route = { id: r.id, parentId: r.parentId || undefined, path: r.path, index: r.index || undefined }
		routes[r.id] = { ...route, module }
		// What the browser's manifest says of each route; the document answer above renders nothing from it.
		manifest[r.id] = {
			...route,
			hasAction: Boolean(module.action),
			hasLoader: Boolean(module.loader),
			hasClientAction: false,
			hasClientLoader: false,
			hasClientMiddleware: false,
			hasErrorBoundary: Boolean(module.ErrorBoundary),
			module: `/${r.id}.js`,
		}
	}
	const build: ServerBuild = {
		entry: { module: entryModule },
		routes,
		assets: { entry: { module: '/entry.client.js', imports: [] }, routes: manifest, url: '/manifest.js', version: 'test' } as never,
		publicPath: '/',
		assetsBuildDirectory: 'build/client',
		// The app's own future flags (middleware among them), as its build has them.
		future: config.future as ServerBuild['future'],
		ssr: true,
		isSpaMode: false,
		prerender: [],
		routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
		allowedActionOrigins: false,
	}
	const handle = createRequestHandler(build, 'production')
	return (request: Request, address = testAddress()) => {
		const context = new RouterContextProvider()
		context.set(clientAddressContext, address)
		return handle(request, context)
	}
}

/**
 * The app's request handler as server.ts builds it (React Router's own runtime: route matching, root and layout
 * middleware, loaders, actions, error boundaries), over the route modules of app/routes.ts; pages answer JSON.
 */
export function appHandler() {
	return (handler ??= load())
}
