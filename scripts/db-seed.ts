import { DEMO_EMAIL, seed } from '../db/seed.ts'

// `npm run db:seed [-- --demo]`: the catalogue, discounts and consent texts (idempotent), and the demo account if asked.
// The database module is loaded after the check: loading it opens the embedded database.
const demo = process.argv.includes('--demo') || ['1', 'true'].includes(process.env.SEED_DEMO ?? '')
if (demo && process.env.NODE_ENV === 'production') {
	process.stderr.write('Refusing to create the demo account in production.\n')
	process.exit(1)
}

const { db, closeDb } = await import('../db/client.ts')
const { migrate } = await import('../db/migrate.ts')
const { hashPassword } = await import('../app/utils/password.server.ts')
await migrate(db)
await seed(db, { demo: demo ? { hashPassword } : undefined })
process.stdout.write(`Seeded the catalogue, discounts and consent texts${demo ? `, and the demo account ${DEMO_EMAIL}` : ''}.\n`)
await closeDb()
