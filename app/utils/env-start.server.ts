import { configProblems } from './env-rules.server.ts'
import { log } from './log.server.ts'

/*
 * server/lifecycle.ts, the server build's first import, imports this first: a configuration that may not start is
 * refused before any module reads it (a secret generated into DATA_DIR, a connection opened), with every problem in
 * one line.
 */
const problems = configProblems(process.env)
if (problems.length) {
	log.fatal({ problems: problems.length }, `The configuration may not start: ${problems.join('; ')}`)
	process.exit(1)
}
