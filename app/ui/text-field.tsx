import { getInputProps, getSelectProps } from '@conform-to/react'
import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react'
import { CheckboxField, Field, SelectField } from './forms.tsx'

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

/** A conform field as a labelled checkbox, wired as TextField wires an input. */
export function CheckField({ field, label }: { field: Parameters<typeof getInputProps>[0]; label: ReactNode }) {
	return <CheckboxField label={label} inputProps={getInputProps(field, { type: 'checkbox' })} errors={field.errors} />
}

/** A sticker's PIN as input attributes: eight characters, shown in capitals whatever the keyboard types. */
export function pinInputProps(field: Parameters<typeof getInputProps>[0]) {
	return {
		...getInputProps(field, { type: 'text' }),
		maxLength: 8,
		autoComplete: 'off',
		autoCapitalize: 'characters',
		onInput: (e: FormEvent<HTMLInputElement>) => {
			const input = e.currentTarget
			input.value = input.value.toUpperCase()
		},
	}
}

/**
 * A conform field as a labelled select, wired as TextField wires an input. A value the field was given that none of the
 * options holds (one stored by an older version, say) is offered too, as it is, and stays selected: the form shows what
 * is stored and sends it back unchanged, never an empty or different value in its place.
 */
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
	const given = field.initialValue
	const shown =
		typeof given === 'string' && given !== '' && !options.some((o) => o.value === given)
			? [...options, { value: given, label: given }]
			: options
	return (
		<SelectField
			label={label}
			placeholder={placeholder}
			className={className}
			errors={field.errors}
			options={shown}
			selectProps={getSelectProps(field)}
		/>
	)
}
