import { embeddedDatabaseHolder } from '../db/embedded-lock.ts'

/**
 * The app's database for a one-off command run beside the server. While a server holds the embedded database the
 * command stops (exit 1, one line on standard error, ending with `whileHeld`); the database module is loaded only
 * after that check, because loading it opens the embedded database.
 */
export async function scriptDatabase(whileHeld = 'stop it first, or set DATABASE_URL.') {
	const holder = process.env.DATABASE_URL ? null : embeddedDatabaseHolder(process.env.DATA_DIR ?? '.data')
	if (holder) {
		console.error(`The server (pid ${holder}) is using the embedded database: ${whileHeld}`)
		process.exit(1)
	}
	const [{ db, closeDb }, { prepareDatabase }] = await Promise.all([import('../db/client.ts'), import('../db/prepare.ts')])
	return { db, closeDb, prepareDatabase }
}
