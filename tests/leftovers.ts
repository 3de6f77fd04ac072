export type RawQuery = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>

/** Every table with rows whose text mentions one of the values: what deleting an account left behind. */
export async function rowsMentioning(query: RawQuery, values: string[]) {
	const tables = await query(
		`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
		[],
	)
	const found: string[] = []
	for (const { table_name: table } of tables) {
		for (const value of values) {
			const [row] = await query(
				`select count(*)::int as n from "${String(table)}" t where position(lower($1::text) in lower(t::text)) > 0`,
				[value],
			)
			if (Number(row?.n) > 0) found.push(`${String(table)} mentions ${value}: ${Number(row!.n)} row(s)`)
		}
	}
	return found
}
