// The whole schema, one file per area under db/schema/; everything imports it from here ('#db/schema.ts').
// drizzle.config.ts reads the area files themselves.
export * from './schema/accounts.ts'
export * from './schema/profiles.ts'
export * from './schema/qr.ts'
export * from './schema/shop.ts'
export * from './schema/giving.ts'
export * from './schema/requests.ts'
export * from './schema/consent.ts'
export * from './schema/mail.ts'
export * from './schema/analytics.ts'
export * from './schema/system.ts'
export * from './schema/admin.ts'
export * from './schema/relations.ts'
