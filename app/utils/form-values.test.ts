import { expect, test } from 'vitest'
import { formValues } from './form-values.ts'

test('keeps the values a form is about and drops the intent and ids it carries', () => {
	const action = { intent: 'add-allergy', profileId: 3, id: undefined, allergen: 'Nuts', reaction: undefined }
	expect(formValues(action, ['intent', 'profileId', 'id'])).toStrictEqual({ allergen: 'Nuts', reaction: undefined })
})
