export const PROFILE_INTENTS = {
	updateName: 'update-name',
	changeEmail: 'change-email',
	cancelEmailChange: 'cancel-email-change',
	signOutEverywhere: 'sign-out-everywhere',
	deleteAccount: 'delete-account',
} as const
