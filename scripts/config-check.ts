import { configProblems, configSummary, EnvSchema } from '../app/utils/env-rules.server.ts'

// `npm run config:check`: the verdict the server gives its configuration at start, without starting anything or
// connecting anywhere. Every problem on a line of its own and exit 1; or what the configuration switches on and exit 0.
// Secrets are named, never shown.
const problems = configProblems(process.env)
if (problems.length) {
	console.error(`The configuration may not start (${problems.length} problem${problems.length === 1 ? '' : 's'}):`)
	for (const problem of problems) console.error(`  ${problem}`)
	process.exit(1)
}
console.log('configuration OK')
for (const line of configSummary(EnvSchema.parse(process.env))) console.log(`  ${line}`)
