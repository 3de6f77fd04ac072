/**
 * A parsed form without the keys every form of its page carries (its intent, the ids of the profile, row or code it
 * is for): what is left are the values the form is about.
 */
export function formValues<T extends object, K extends string>(action: T, carried: readonly K[]): Omit<T, K> {
	const kept = Object.entries(action).filter(([key]) => !(carried as readonly string[]).includes(key))
	return Object.fromEntries(kept) as Omit<T, K>
}
