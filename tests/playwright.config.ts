import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, devices } from '@playwright/test'

const port = Number(process.env.E2E_PORT ?? 3100)
export const baseURL = `http://localhost:${port}`
/** The journeys' admin token: a session that presents it opens the admin area (the owner journey uses two-factor). */
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdefghij'
// The stickers and accounts start-server.ts writes, and the journeys' claims on them: one file per port, so runs side
// by side in one checkout (each on its own E2E_PORT) never hand out each other's rows.
export const fixturesFile = fileURLToPath(new URL(`e2e/.fixtures-${port}.json`, import.meta.url))
/** What the journeys' server logs, checked at the end for anything personal (e2e/server-log-check.ts). */
export const serverLogFile = fileURLToPath(new URL(`e2e/.server-log-${port}.jsonl`, import.meta.url))
/** Secrets the journeys made while running (a two-factor key, the codes they typed), one per line, for the same check. */
export const typedSecretsFile = `${serverLogFile}.secrets`

// Debian's headless build of Chromium when installed (the journeys ran 35-40 % faster on it here), else the full browser.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const executablePath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')

const chromium = {
	...devices['Desktop Chrome'],
	launchOptions: {
		executablePath,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
			'--disable-quic',
		],
	},
}

export default defineConfig({
	testDir: './e2e',
	fullyParallel: true,
	workers: 2,
	// No retries: a journey that consumes its fixture (a claimed PIN) cannot be replayed, and flakiness should show.
	retries: 0,
	forbidOnly: Boolean(process.env.CI),
	reporter: process.env.CI ? [['list']] : [['list']],
	// A shared CI machine can run several times slower than a quiet one; a journey's time limit is no measure of speed.
	timeout: process.env.CI ? 60_000 : 30_000,
	expect: { timeout: process.env.CI ? 15_000 : 7_000 },
	// A failed journey keeps a screenshot of its end and, outside CI, its trace (each step's DOM). The trace's screencast
	// is left out: it made Chromium composite and encode every frame, a third of the run's time on two cores. Under CI
	// the DOM snapshots are left out too (5 % of the run), as nobody can open a trace there.
	use: {
		baseURL,
		trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
		screenshot: 'only-on-failure',
	},
	globalTeardown: './e2e/server-log-check.ts',
	projects: [
		{ name: 'js', use: { ...chromium, javaScriptEnabled: true }, testIgnore: /\.no-js-only\.spec\.ts$/ },
		{ name: 'no-js', use: { ...chromium, javaScriptEnabled: false }, testIgnore: /\.js-only\.spec\.ts$/ },
	],
	webServer: {
		command: 'node --import tsx tests/e2e/start-server.ts',
		cwd: '..',
		url: `${baseURL}/auth`,
		reuseExistingServer: false,
		timeout: 120_000,
		// Stopped with SIGTERM rather than SIGKILL, the server closes its database and start-server.ts removes its folder.
		gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
		stdout: 'ignore',
		stderr: 'pipe',
		env: {
			NODE_ENV: 'production',
			PORT: String(port),
			PUBLIC_URL: baseURL,
			SESSION_SECRET: 'e2e-session-secret',
			RATE_LIMIT_STRICT_PER_MINUTE: '1000',
			RATE_LIMIT_LOOSE_PER_MINUTE: '5000',
			RATE_LIMIT_HEAVY_PER_MINUTE: '1000',
			E2E_FIXTURES: fixturesFile,
			E2E_SERVER_LOG: serverLogFile,
			OWNER_EMAIL: 'owner0@e2e.example',
			ADMIN_TOKEN: ADMIN_TOKEN,
			// Stopped by SIGTERM (10 s allowed): no wait before the drain; no metrics listener beside the other instances.
			SHUTDOWN_DELAY_MS: '0',
			METRICS_PORT: '0',
			// Two browsers share the machine's cores: renderers at idle priority could wait for one past a journey's limit.
			RENDERER_IDLE_PRIORITY: 'false',
		},
	},
})
