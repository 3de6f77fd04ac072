import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'

/** What every line written during a request or a job carries: which request (and its route pattern) or which job. */
export type LogScope = { requestId?: string; route?: string; queue?: string; jobId?: string }

type ErrorReporter = (error: unknown, scope: LogScope) => void
// One copy of this module per process: server.ts reaches it through the server build (server/lifecycle.ts).
const scopes = new AsyncLocalStorage<LogScope>()
let errorReporter: ErrorReporter | undefined

/** Runs `work` with `scope` on every line it logs (the request's id and route, a job's queue and id). */
export function runInLogScope<T>(scope: LogScope, work: () => T): T {
	return scopes.run(scope, work)
}

/** The scope of the request or job under way, to fill in (the route pattern is known only once the router matched). */
export function logScope(): LogScope | undefined {
	return scopes.getStore()
}

const PERSONAL_KEYS = [
	'email',
	'to',
	'toAddress',
	'recipient',
	'subject',
	'name',
	'fullName',
	'firstName',
	'lastName',
	'address',
	'phone',
	'password',
	'token',
	'pin',
	'totpCode',
	'otp',
	'secret',
	'params',
	'body',
]

/**
 * Header and field paths that never reach a line whole, whoever logs them. The first line of defence is logging ids
 * and counts only; this is the second.
 */
export const REDACTED_PATHS = [
	'req.headers.cookie',
	'req.headers.authorization',
	'req.headers["x-admin-token"]',
	'res.headers["set-cookie"]',
	'headers.cookie',
	'headers.authorization',
	...PERSONAL_KEYS.flatMap((key) => [key, `*.${key}`]),
]

type DatabaseErrorFields = {
	code?: string
	severity?: string
	table_name?: string
	table?: string
	constraint_name?: string
	constraint?: string
	column_name?: string
	column?: string
	routine?: string
}

/**
 * An error as a log line may hold it. A database error keeps its class, SQLSTATE code, table, constraint and column,
 * never its message or statement: PostgreSQL repeats the offending value in both ("invalid input syntax for type
 * integer: …", "Key (email)=(…) already exists"), and the driver's wrapper repeats the parameters. Other errors keep
 * their class, code, message and stack.
 */
export function loggedError(error: unknown): Record<string, unknown> {
	if (!(error instanceof Error)) return { type: typeof error }
	const wrapped = error.name === 'DrizzleQueryError' || 'query' in error || 'params' in error
	if (wrapped && error.cause) return { ...loggedError(error.cause), wrappedBy: error.constructor.name }
	const db = error as Error & DatabaseErrorFields
	if (error.name === 'PostgresError' || error.constructor.name === 'DatabaseError' || (db.severity && db.routine)) {
		return {
			type: 'DatabaseError',
			code: db.code,
			table: db.table_name ?? db.table,
			constraint: db.constraint_name ?? db.constraint,
			column: db.column_name ?? db.column,
		}
	}
	if (wrapped) return { type: error.constructor.name }
	// Stripe's errors quote the request they refused (an e-mail, a name): its codes and request id find it in Stripe.
	const stripe = error as Error & { type?: unknown; code?: unknown; requestId?: unknown; statusCode?: unknown }
	if (typeof stripe.type === 'string' && stripe.type.startsWith('Stripe'))
		return { type: stripe.type, code: stripe.code, requestId: stripe.requestId, statusCode: stripe.statusCode }
	const fields: Record<string, unknown> = { type: error.constructor.name, message: error.message }
	const code = (error as { code?: unknown }).code
	if (typeof code === 'string' || typeof code === 'number') fields.code = code
	if (error.stack) fields.stack = error.stack
	if (error.cause) fields.cause = loggedError(error.cause)
	return fields
}

/** Where logged errors also go (server/error-reporting.ts, with SENTRY_DSN); nothing is sent without one. */
export function setErrorReporter(reporter: ErrorReporter | undefined) {
	errorReporter = reporter
}

/** An error logged at error or fatal level (`log.error({ err }, …)`) is also reported, with its request id and route. */
function reportLoggedError(this: pino.Logger, args: Parameters<pino.LogFn>, method: pino.LogFn, level: number) {
	const fields = args[0] as { err?: unknown } | undefined
	if (level >= 50 && errorReporter && fields && typeof fields === 'object' && fields.err instanceof Error) {
		try {
			errorReporter(fields.err, { ...scopes.getStore() })
		} catch {
			// Reporting never stands in the way of logging.
		}
	}
	return method.apply(this, args)
}

/** The logger, writing to `destination` (a test's) or stdout. */
export function createLogger(
	destination?: pino.DestinationStream,
	level = process.env.LOG_LEVEL || (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
) {
	const pretty = !destination && process.env.NODE_ENV === 'development' && process.env.LOG_FORMAT !== 'json'
	const options: pino.LoggerOptions = {
		level,
		base: { pid: process.pid },
		timestamp: pino.stdTimeFunctions.isoTime,
		formatters: { level: (label) => ({ level: label }) },
		serializers: { err: loggedError, error: loggedError },
		redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
		mixin: () => ({ ...scopes.getStore() }),
		hooks: { logMethod: reportLoggedError },
		...(pretty ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' } } } : {}),
	}
	return destination ? pino(options, destination) : pino(options)
}

/**
 * The app's one logger: JSON lines on stdout (readable in development), at LOG_LEVEL (default info; silent in tests).
 * Log ids, counts and durations; an error goes under `err`, where it is reduced by loggedError.
 */
export const log: pino.Logger = createLogger()
