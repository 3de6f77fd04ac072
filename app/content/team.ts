// What /team shows. The foundation publishes its people by adding them here; a group left empty is not shown.

export type TeamMember = {
	name: string
	/** e.g. 'Executive Director', 'Board Chair', 'Volunteer' */
	role: string
	/** One or two sentences. */
	bio?: string
}

export const mission =
	'The Hit Me Helpers Foundation is a nonprofit that puts the facts a first responder needs within seconds of reach: ' +
	'code status, critical conditions, allergies, medications and who to call, behind a QR code on a sticker or card. ' +
	'The service is free for everyone and funded by donations.'

export const leadership: TeamMember[] = []

export const board: TeamMember[] = []

export const members: TeamMember[] = []

export const values = [
	{
		title: 'Emergency First',
		text: 'What a responder needs comes first, readable on any phone in seconds, without an app or an account.',
	},
	{
		title: 'Always Free',
		text: 'Profiles, QR codes and codes by mail cost nothing. The foundation is funded by donations.',
	},
	{
		title: 'Privacy Protected',
		text: 'You choose what a scan shows, can turn scanning off or delete your account at any time, and we never sell or share your information.',
	},
] as const
