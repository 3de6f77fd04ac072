// How sharing a profile reads to people: zod-free, so the invitation page loads nothing more.

/** How many caregivers a profile may have, invitations still waiting included. */
export const MAX_CAREGIVERS = 10

export const CAREGIVER_ROLE_LABELS = {
	editor: 'Editor (reads and changes the medical information)',
	viewer: 'Viewer (reads it)',
} as const
export const CAREGIVER_ROLE_NAMES = { editor: 'Editor', viewer: 'Viewer' } as const

export const CAREGIVER_MESSAGES = {
	yourself: 'This is your own address: invite someone else to help keep this profile.',
	alreadyHelping: 'This person already helps keep this profile.',
	alreadyInvited: 'This address has been invited already: remove that invitation first to send a new one.',
	full: `A profile can have at most ${MAX_CAREGIVERS} caregivers, invitations waiting included. Remove one to invite someone else.`,
	notFound: 'Caregiver not found',
	ownerRevokes: "Only the profile's owner can remove another caregiver.",
	unknown: 'This invitation link is not valid. Check that you opened the whole link from the e-mail.',
	accepted: 'This invitation has already been accepted: each link works once.',
	withdrawn: 'This invitation was withdrawn by the profile’s owner. Ask them to invite you again.',
	expired: 'This invitation has expired. Ask the profile’s owner to invite you again.',
	profileDeleted: 'The profile this invitation was for has been deleted.',
	yourOwn: 'This is your own profile: there is nothing to accept.',
	alreadyHelpingYou: 'You already help keep this profile.',
	otherAccount: (email: string) =>
		`This invitation was sent to ${email}. Sign in with that address (or create an account with it) to accept it.`,
} as const

/** The words for each state an invitation's link cannot be used in (the page and the refusals say the same). */
export const CLOSED_INVITATION = {
	unknown: CAREGIVER_MESSAGES.unknown,
	accepted: CAREGIVER_MESSAGES.accepted,
	withdrawn: CAREGIVER_MESSAGES.withdrawn,
	expired: CAREGIVER_MESSAGES.expired,
	'profile-deleted': CAREGIVER_MESSAGES.profileDeleted,
} as const
