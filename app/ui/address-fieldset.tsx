import type { ComponentProps, ReactNode, Ref } from 'react'
import { Field, SelectField } from './forms.tsx'

type FieldProps = ComponentProps<typeof Field>
type SelectProps = ComponentProps<typeof SelectField>

/**
 * A postal address: street (and a second line when given), then city, state, postal code and country in a grid. Each
 * form names and labels its fields as its spec says; the layout and the browser's autofill tokens are set here, once.
 */
export function AddressFieldset({
	legend,
	street,
	line2,
	city,
	state,
	postalCode,
	country,
	children,
	after,
	fieldsetRef,
}: {
	legend: ReactNode
	street: FieldProps
	line2?: FieldProps
	city: FieldProps
	state: FieldProps
	postalCode: FieldProps
	country: SelectProps
	/** What comes before the address inside the fieldset (a search, the addressee's name). */
	children?: ReactNode
	/** What follows the address inside the fieldset. */
	after?: ReactNode
	fieldsetRef?: Ref<HTMLFieldSetElement>
}) {
	const autofill = (props: FieldProps, token: string): FieldProps => ({
		...props,
		inputProps: { autoComplete: token, ...props.inputProps },
	})
	return (
		<fieldset ref={fieldsetRef} className="space-y-4">
			<legend className="mb-2 text-lg font-bold text-gray-900">{legend}</legend>
			{children}
			<Field {...autofill(street, line2 ? 'address-line1' : 'street-address')} />
			{line2 ? <Field {...autofill(line2, 'address-line2')} /> : null}
			<div className="grid gap-4 sm:grid-cols-2">
				<Field {...autofill(city, 'address-level2')} />
				<Field {...autofill(state, 'address-level1')} />
				<Field {...autofill(postalCode, 'postal-code')} />
				<SelectField {...country} />
			</div>
			{after}
		</fieldset>
	)
}
