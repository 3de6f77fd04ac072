import { existsSync, readFileSync } from 'node:fs'
import type { ErrorEvent, EventHint } from '@sentry/node'
import { loggedError, setErrorReporter } from '../app/utils/log.server.ts'

const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g

/**
 * What leaves for the error service: the error's class and code (a database error's message and statement quote the
 * values, so they stay behind, as in the log), its stack, the request id and route. No request, user, breadcrumbs or
 * extras; and any e-mail address left anywhere in it is blanked.
 */
export function scrubEvent(event: ErrorEvent, hint: EventHint): ErrorEvent {
	const safe = loggedError(hint.originalException)
	for (const value of event.exception?.values ?? []) {
		value.value =
			typeof safe.message === 'string'
				? safe.message
				: [safe.type, safe.code, safe.table, safe.constraint].filter((part) => typeof part === 'string').join(' ')
		if (typeof safe.type === 'string') value.type = safe.type
	}
	delete event.request
	delete event.user
	delete event.breadcrumbs
	delete event.extra
	delete event.server_name
	if (event.contexts) event.contexts = { runtime: event.contexts.runtime, os: event.contexts.os }
	return JSON.parse(JSON.stringify(event).replace(EMAIL, '[email]')) as ErrorEvent
}

/**
 * With SENTRY_DSN, every error the server logs (log.error, log.fatal) also goes to Sentry or a Sentry-compatible
 * service (GlitchTip), scrubbed. The SDK is loaded only then. Returns the function that flushes it at shutdown.
 */
export async function startErrorReporting(dsn: string, { release, environment }: { release: string; environment: string }) {
	const Sentry = await import('@sentry/node')
	Sentry.init({
		dsn,
		release,
		environment,
		dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
		defaultIntegrations: false,
		integrations: [],
		beforeBreadcrumb: () => null,
		beforeSend: scrubEvent,
	})
	setErrorReporter((error, scope) => {
		Sentry.withScope((sentryScope) => {
			for (const [key, value] of Object.entries(scope)) if (typeof value === 'string') sentryScope.setTag(key, value)
			Sentry.captureException(error)
		})
	})
	return () => Sentry.close(2_000)
}

/** The release an error belongs to: the package version, and the commit when the deploy says (GIT_COMMIT). */
export function appVersion() {
	// From server/ as a source file, or from build/server/index.js, which bundles this module.
	const file = [`../package.json`, `../../package.json`].map((place) => new URL(place, import.meta.url)).find((url) => existsSync(url))!
	const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: string }
	return [version ?? '0.0.0', process.env.GIT_COMMIT?.slice(0, 12)].filter(Boolean).join('+')
}
