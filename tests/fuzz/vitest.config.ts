import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The fuzz suite runs the built app (npm run build first) in a server of its own; the unit config never includes it.
export default defineConfig({
	test: {
		root: fileURLToPath(new URL('../..', import.meta.url)),
		include: ['tests/fuzz/**/*.test.ts'],
		environment: 'node',
		pool: 'forks',
		maxWorkers: 1,
		fileParallelism: false,
		// The summary line (`fuzz: N requests, M server errors`) shows in CI whether the run passes or not.
		disableConsoleIntercept: true,
		testTimeout: 600_000,
		hookTimeout: 240_000,
	},
})
