// The import layers (README, "How it is built"): routes → features → middleware → domain → adapters → db, with utils and ui below them all.
// Tests and scripts may reach into any layer; the app's own modules may not reach up.
const layer = (name) => `^app/${name}/`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: 'no-cycles',
			severity: 'error',
			comment: 'A cycle hides which module owns a rule; one of the two is in the wrong layer.',
			from: {},
			to: { circular: true },
		},
		{
			name: 'domain-stays-below-the-web',
			severity: 'error',
			comment:
				'Domain code takes plain values and returns values or throws DomainError: no routes, middleware, UI, sessions, toasts or React Router.',
			from: { path: layer('domain') },
			to: {
				path: [
					layer('routes'),
					layer('features'),
					layer('middleware'),
					layer('ui'),
					'^app/utils/(session|toast|auth|request|api|permissions)[.]server[.]ts$',
					'^app/root[.]tsx$',
				],
			},
		},
		{
			name: 'domain-knows-no-http',
			severity: 'error',
			from: { path: layer('domain') },
			to: { path: 'node_modules/(react-router|@react-router|@conform-to|remix-auth[^/]*)/' },
		},
		{
			name: 'db-imports-nothing-from-app',
			severity: 'error',
			comment:
				'The schema, migrations and start-up work sit below the app: what they need from it (the data keys, the logger, password hashing) is handed in.',
			from: { path: '^db/' },
			to: { path: '^app/' },
		},
		{
			name: 'adapters-and-db-below-the-domain',
			severity: 'error',
			from: { path: [layer('adapters'), '^db/'] },
			to: { path: [layer('domain'), layer('routes'), layer('features'), layer('middleware'), layer('ui'), '^app/root[.]tsx$'] },
		},
		{
			name: 'utils-and-ui-at-the-bottom',
			severity: 'error',
			comment: 'Helpers and UI pieces are used by every layer, so they import none of the layers above them.',
			from: { path: [layer('utils'), layer('ui')] },
			to: {
				path: [layer('domain'), layer('routes'), layer('features'), layer('middleware'), '^app/root[.]tsx$'],
				pathNot: '[.]test[.]tsx?$',
			},
		},
		{
			name: 'middleware-below-routes',
			severity: 'error',
			from: { path: layer('middleware') },
			to: { path: [layer('routes'), layer('features'), '^app/root[.]tsx$'] },
		},
		{
			name: 'features-below-routes',
			severity: 'error',
			comment: 'A feature is a page piece several route areas or the root show; it imports no route module and not the root.',
			from: { path: layer('features') },
			to: { path: [layer('routes'), '^app/root[.]tsx$', '^app/page-chrome[.]ts$'] },
		},
		{
			name: 'routes-stay-in-their-area',
			severity: 'error',
			comment:
				'A file under app/routes/<area>/ serves that area only: what two areas or the root share lives in app/ui/ (components), app/domain/<area>/ (rules) or app/features/<feature>/ (a page piece with its server half).',
			from: { path: '^app/routes/([^/]+)/' },
			to: { path: '^app/routes/', pathNot: '^app/routes/$1/' },
		},
		{
			name: 'nothing-outside-routes-imports-routes',
			severity: 'error',
			comment: 'Only the URL table (app/routes.ts) names route modules; the root, the page chrome, features and app/ui import none.',
			from: { path: '^app/', pathNot: ['^app/routes/', '^app/routes[.]ts$'] },
			to: { path: '^app/routes/' },
		},
		{
			name: 'api-shapes-from-the-domain',
			severity: 'error',
			comment: 'A JSON endpoint answers a public shape built in the domain, never a page’s.',
			from: { path: '^app/routes/api/' },
			to: { path: '^app/routes/(?!api/)' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: ['[.]test[.]tsx?$', '^[.]react-router/', '^build/'] },
		includeOnly: ['^app/', '^db/', '^server', '^node_modules/(react-router|@react-router|@conform-to|remix-auth)'],
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		enhancedResolveOptions: {
			exportsFields: ['exports'],
			conditionNames: ['import', 'require', 'node', 'default', 'types'],
			extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
			mainFields: ['module', 'main', 'types', 'typings'],
		},
		skipAnalysisNotInRules: true,
	},
}
