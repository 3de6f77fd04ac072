// Playwright's global teardown: the journeys' server log (start-server.ts writes it while they run) must hold nothing
// personal that they typed or that the fixtures hold, and every access line its request id and route.
import { existsSync, readFileSync } from 'node:fs'
import { ADMIN_TOKEN, fixturesFile, serverLogFile, typedSecretsFile } from '../playwright.config.ts'

type Fixtures = {
	codes: Array<{ pin: string; token: string }>
	users: Array<{ email: string; password: string }>
	legacyUsers: Array<{ email: string; password: string }>
}

/** Values the journeys type (tests/e2e/*.spec.ts): a contact, a phone, a policy number, a hospital, a family name, an allergy. */
const TYPED = ['Alan Turing', '+1 555 010 2000', 'POL-123', "St. Mary's", 'Hopper', 'Fixture-pass-1!', 'Penicillin']

export default function checkServerLog() {
	if (!existsSync(serverLogFile)) throw new Error(`The journeys' server wrote no log (${serverLogFile}).`)
	const log = readFileSync(serverLogFile, 'utf8')
	const fixtures = JSON.parse(readFileSync(fixturesFile, 'utf8')) as Fixtures
	const personal = [
		...fixtures.codes.flatMap((code) => [code.pin, code.token]),
		...[...fixtures.users, ...fixtures.legacyUsers].flatMap((user) => [user.email, user.password]),
		ADMIN_TOKEN,
		...TYPED,
	]
	const found = personal.filter((value) => log.includes(value))
	// Two-factor codes are six digits: found only standing alone, not inside a longer number or id.
	const secrets = existsSync(typedSecretsFile) ? readFileSync(typedSecretsFile, 'utf8').split('\n').filter(Boolean) : []
	found.push(
		...secrets.filter((secret) => new RegExp(`(?<![\\w])${secret}(?![\\w])`).test(log)).map((secret) => `the journeys' secret ${secret}`),
	)
	// Every account the journeys make has an address @e2e.example.
	if (/@e2e\.example/.test(log)) found.push('an @e2e.example address')
	const lines = log.split('\n').filter(Boolean)
	const requests = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request')
	const unnamed = requests.filter((line) => !line.requestId || !line.route)
	const problems = [
		...(found.length ? [`personal values in the server log: ${found.join(', ')}`] : []),
		...(unnamed.length ? [`${unnamed.length} access lines without a request id or route`] : []),
		...(requests.length === 0 ? ["no access line: the log is not the journeys' server's"] : []),
	]
	console.log(
		`server log: ${lines.length} lines, ${requests.length} requests, ${found.length} personal values (of ${personal.length + secrets.length} sought)`,
	)
	if (problems.length) throw new Error(problems.join('\n'))
}
