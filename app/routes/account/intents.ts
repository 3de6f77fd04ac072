export const PROFILE_INTENTS = {
	updateName: 'update-name',
	changeEmail: 'change-email',
	deleteAccount: 'delete-account',
} as const
