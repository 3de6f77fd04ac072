import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { expect, test } from 'vitest'
import { migrationsFolder } from '#db/migrate.ts'
import { CATALOGUE } from '#db/seed.ts'
import { currentRunName, databaseUrl } from '#tests/setup/databases.ts'

const base = process.env.DATABASE_URL
const root = join(import.meta.dirname, '../..')
const built = existsSync(join(root, 'build/server/index.js'))

async function freePort() {
	const server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const { port } = server.address() as AddressInfo
	await new Promise<void>((resolve) => server.close(() => resolve()))
	return port
}

// What db/prepare.test.ts checks in one process, with the real server: two instances started at once on a new
// PostgreSQL database, as a deploy of two does. It needs the built app (npm run build; CI builds before the tests).
test.skipIf(!base || !built)(
	'two servers started at once on an empty PostgreSQL database both start and answer',
	async () => {
		const name = `${currentRunName()}_instances`
		const admin = postgres(base!, { max: 1, onnotice: () => {} })
		await admin.unsafe(`create database ${name}`)
		const dataDir = mkdtempSync(join(tmpdir(), 'hmh-instances-'))
		const servers: ChildProcess[] = []
		try {
			const ports = [await freePort(), await freePort()]
			for (const port of ports) {
				const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
					cwd: root,
					env: {
						PATH: process.env.PATH,
						NODE_ENV: 'production',
						LOG_LEVEL: 'warn',
						DATABASE_URL: databaseUrl(base!, name),
						HOST: '127.0.0.1',
						PORT: String(port),
						PUBLIC_URL: `http://127.0.0.1:${port}`,
						ALLOW_INSECURE_PUBLIC_URL: 'true',
						SESSION_SECRET: 'two-instances',
						DATA_ENCRYPTION_KEYS: 'k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
						DATA_DIR: join(dataDir, String(port)),
					},
					stdio: ['ignore', 'ignore', 'inherit'],
				})
				servers.push(child)
			}
			const answers = async () =>
				Promise.all(
					ports.map((port, i) =>
						servers[i]!.exitCode !== null
							? `exited ${servers[i]!.exitCode}`
							: fetch(`http://127.0.0.1:${port}/auth`).then(
									(answer) => answer.status,
									() => 'not listening',
								),
					),
				)
			await expect.poll(answers, { timeout: 75_000, interval: 250 }).toEqual([200, 200])
			const database = postgres(databaseUrl(base!, name), { max: 1, onnotice: () => {} })
			try {
				const [{ applied }] = await database<[{ applied: number }]>`select count(*)::int as applied from drizzle.__drizzle_migrations`
				expect(applied).toBe(readMigrationFiles({ migrationsFolder }).length)
				const [{ products }] = await database<[{ products: number }]>`select count(*)::int as products from products`
				expect(products).toBe(CATALOGUE.length)
			} finally {
				await database.end()
			}
		} finally {
			await Promise.all(
				servers.map((child) =>
					child.exitCode === null ? new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) : null,
				),
			)
			rmSync(dataDir, { recursive: true, force: true })
			await admin.unsafe(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	},
	60_000,
)
