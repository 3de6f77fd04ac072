import postgres from 'postgres'
import { TEMPLATE_DB, WORKER_DBS, databaseUrl } from './databases.ts'

/** With PostgreSQL: migrate and seed one template, then give each worker its own copy. */
export default async function setup() {
	const base = process.env.DATABASE_URL
	if (!base) return
	const admin = postgres(base, { max: 1, onnotice: () => {} })
	try {
		await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`)
		await admin.unsafe(`create database ${TEMPLATE_DB}`)
		const { connect } = await import('../../db/client.ts')
		const { prepareDatabase } = await import('../../db/prepare.ts')
		const template = connect(databaseUrl(base, TEMPLATE_DB), '')
		await prepareDatabase(template.db)
		await template.close()
		for (let i = 1; i <= WORKER_DBS; i++) {
			await admin.unsafe(`drop database if exists hmh_test_${i} with (force)`)
			await admin.unsafe(`create database hmh_test_${i} template ${TEMPLATE_DB}`)
		}
	} finally {
		await admin.end()
	}
}
