import { type RouteConfig, index, route } from '@react-router/dev/routes'

// The whole URL table (spec 000 §2). A path appears here once its page or endpoint is built.
export default [
	index('routes/home.tsx', { id: 'home' }),
	route('dashboard', 'routes/home.tsx', { id: 'dashboard' }),
	route('auth', 'routes/auth/landing.tsx', { id: 'auth' }),
	route('register', 'routes/auth/landing.tsx', { id: 'register' }),
	route('signin', 'routes/auth/landing.tsx', { id: 'signin' }),
	route('subscribe', 'routes/auth/landing.tsx', { id: 'subscribe' }),
	route('login', 'routes/auth/login.tsx'),
	route('signup', 'routes/auth/signup.tsx'),
	route('auth/callback', 'routes/auth/callback.ts'),
	route('claim/:pin', 'routes/claims/claim.tsx'),
	route('medical-info', 'routes/medical/medical-info.tsx'),
	route('files/:kind/:id', 'routes/files.ts'),
	route('scan/:token', 'routes/scan/scan.ts'),
	route('scan/:token/:kind', 'routes/scan/scan-file.ts'),
	route('qr/:token', 'routes/scan/qr-redirect.ts'),

	route('api/login', 'routes/api/login.ts'),
	route('api/signup', 'routes/api/signup.ts'),
	route('api/auth/user', 'routes/api/auth-user.ts'),
	route('api/auth/logout', 'routes/api/auth-logout.ts'),
	route('api/pin/validate', 'routes/api/pin-validate.ts'),
	route('api/pin/claim', 'routes/api/pin-claim.ts'),
	// Spec 001 §7. An optional :id serves a collection and its items from one module.
	route('api/medical-profiles', 'routes/api/medical-profiles.ts'),
	route('api/medical-profile/:id?', 'routes/api/medical-profile.ts'),
	route('api/emergency-contacts/:id?', 'routes/api/emergency-contacts.ts'),
	route('api/allergies/:id?', 'routes/api/allergies.ts'),
	route('api/medications/:id?', 'routes/api/medications.ts'),
	route('api/medical-conditions/:id?', 'routes/api/medical-conditions.ts'),
	route('api/insurance-policies/:id?', 'routes/api/insurance-policies.ts'),
	route('api/medical-documents/:id?', 'routes/api/medical-documents.ts'),
	route('api/upload', 'routes/api/upload.ts'),
	route('api/upload-document', 'routes/api/upload-document.ts'),
	route('api/upload-profile-picture', 'routes/api/upload-profile-picture.ts'),
	route('api/user/access-level', 'routes/api/user-access-level.ts'),

	route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
