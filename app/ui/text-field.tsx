import { getInputProps, getSelectProps } from '@conform-to/react'
import type { InputHTMLAttributes, ReactNode } from 'react'
import { Field, SelectField } from './forms.tsx'

type InputType = 'text' | 'email' | 'password' | 'number' | 'date' | 'tel' | 'url' | 'search'

/**
 * A conform field as a labelled input: its name, constraints, value and errors wired in one place. Other input
 * attributes (autoComplete, inputMode...) pass through; `className` and `hint` are the wrapper's, as with Field.
 */
export function TextField({
	field,
	label,
	type = 'text',
	hint,
	className,
	...input
}: {
	field: Parameters<typeof getInputProps>[0]
	label: ReactNode
	type?: InputType
	hint?: ReactNode
	className?: string
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'name' | 'form' | 'className'>) {
	return <Field {...textFieldProps(field, label, { type, hint, className, ...input })} />
}

/** A conform field as Field's props, for components that lay several fields out (AddressFieldset). */
export function textFieldProps(
	field: Parameters<typeof getInputProps>[0],
	label: ReactNode,
	{
		type = 'text',
		hint,
		className,
		...input
	}: { type?: InputType; hint?: ReactNode; className?: string } & Omit<
		InputHTMLAttributes<HTMLInputElement>,
		'type' | 'name' | 'form' | 'className'
	> = {},
) {
	return { label, hint, className, errors: field.errors, inputProps: { ...getInputProps(field, { type }), ...input } }
}

/** A conform field as a labelled select, wired as TextField wires an input. */
export function ChoiceField({
	field,
	label,
	options,
	placeholder,
	className,
}: {
	field: Parameters<typeof getSelectProps>[0]
	label: ReactNode
	options: ReadonlyArray<{ value: string; label: string }>
	placeholder?: string
	className?: string
}) {
	return (
		<SelectField
			label={label}
			placeholder={placeholder}
			className={className}
			errors={field.errors}
			options={options}
			selectProps={getSelectProps(field)}
		/>
	)
}
