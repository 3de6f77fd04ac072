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

/** True while a form sending this intent (and, when given, this row id) is submitting. */
export function useIntentPending(intent: string, id?: number | null) {
	const navigation = useNavigation()
	return (
		navigation.state === 'submitting' &&
		navigation.formData?.get('intent') === intent &&
		(id == null || navigation.formData?.get('id') === String(id))
	)
}
