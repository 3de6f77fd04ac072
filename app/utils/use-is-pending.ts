import { useFormAction, useNavigation } from 'react-router'

/** True while this route's form (or the given one) is submitting. */
export function useIsPending({ formAction, formMethod = 'POST' }: { formAction?: string; formMethod?: string } = {}) {
	const contextualFormAction = useFormAction()
	const navigation = useNavigation()
	return (
		navigation.state !== 'idle' &&
		(navigation.formAction ?? '') === (formAction ?? contextualFormAction) &&
		navigation.formMethod === formMethod
	)
}
