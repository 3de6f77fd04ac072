import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{ ignores: ['build/', '.react-router/', '.data/', 'node_modules/', 'test-results/', 'playwright-report/'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['app/**/*.{ts,tsx}'],
		plugins: { 'react-hooks': reactHooks },
		rules: {
			'react-hooks/rules-of-hooks': 'error',
			'react-hooks/exhaustive-deps': 'warn',
		},
	},
	{
		files: ['**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
	},
	{
		// Playwright fixtures must destructure their dependencies, even none.
		files: ['tests/e2e/**/*.ts'],
		rules: { 'no-empty-pattern': 'off' },
	},
	{
		files: ['**/*.{ts,tsx}'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'no-console': 'off',
		},
	},
	{
		// The app writes through its logger (app/utils/log.server.ts): JSON lines with the request's id, nothing personal.
		files: ['app/**/*.{ts,tsx}', 'db/**/*.ts', 'server/**/*.ts', 'server.ts'],
		ignores: ['**/*.test.{ts,tsx}'],
		rules: { 'no-console': 'error' },
	},
)
