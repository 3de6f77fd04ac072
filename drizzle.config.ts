import { defineConfig } from 'drizzle-kit'

export default defineConfig({
	dialect: 'postgresql',
	// Through the barrel, so the tests beside the schema's files are not loaded with them.
	schema: './db/schema.ts',
	out: './db/migrations',
	casing: 'snake_case',
})
