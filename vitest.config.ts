import { defineConfig } from 'vitest/config'

export default defineConfig({
	test: {
		include: ['app/**/*.test.{ts,tsx}', 'db/**/*.test.ts', 'scripts/**/*.test.ts', 'server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
		environment: 'node',
		globalSetup: ['./tests/setup/global-setup.ts'],
		setupFiles: ['./tests/setup/setup-env.ts', './tests/setup/matchers.ts'],
		pool: 'forks',
		// Test files share a worker's database and modules; every test makes its own rows.
		isolate: false,
		maxWorkers: 2,
		testTimeout: 20_000,
		hookTimeout: 60_000,
	},
})
