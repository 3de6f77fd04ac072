import { useState, type InputHTMLAttributes } from 'react'
import { passwordFailures, passwordStrength } from '#app/domain/accounts/schemas.ts'
import { ErrorList, inputClass, type ListOfErrors } from '#app/ui/forms.tsx'
import { cx } from '#app/ui/cx.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'

const barColour = { red: 'bg-red-600', yellow: 'bg-yellow-500', green: 'bg-green-600' } as const

/** Rule list and five-bar meter update as the person types; without JavaScript the server lists the failures. */
export function PasswordMeter({ inputProps, errors }: { inputProps: InputHTMLAttributes<HTMLInputElement>; errors?: ListOfErrors }) {
	const hydrated = useHydrated()
	const [value, setValue] = useState('')
	const id = inputProps.id ?? 'password'
	const failures = passwordFailures(value)
	const strength = passwordStrength(value)
	const showLive = hydrated && value.length > 0
	const errorId = !showLive && errors?.length ? `${id}-error` : undefined
	return (
		<div>
			<label htmlFor={id} className="mb-1 block text-sm font-semibold text-gray-800">
				Password
			</label>
			<input
				{...inputProps}
				id={id}
				onChange={(e) => {
					setValue(e.currentTarget.value)
					inputProps.onChange?.(e)
				}}
				aria-invalid={errors?.length ? true : undefined}
				aria-describedby={cx(`${id}-strength`, errorId)}
				className={inputClass}
			/>
			<div id={`${id}-strength`} aria-live="polite" className="mt-2">
				{showLive ? (
					<>
						<div className="flex gap-1" aria-hidden="true">
							{[0, 1, 2, 3, 4].map((bar) => (
								<span
									key={bar}
									className={cx('h-1.5 flex-1 rounded', bar <= strength.score ? barColour[strength.colour] : 'bg-gray-200')}
								/>
							))}
						</div>
						<p className="mt-1 text-sm text-gray-700">Strength: {strength.label}</p>
						{failures.length ? (
							<ul className="mt-1 list-disc pl-5 text-sm text-red-700">
								{failures.map((f) => (
									<li key={f}>{f}</li>
								))}
							</ul>
						) : (
							<p className="mt-1 text-sm font-medium text-green-800">Password meets all requirements</p>
						)}
					</>
				) : (
					<p className="text-sm text-gray-600">At least 8 characters, with a number and a special character.</p>
				)}
			</div>
			{showLive ? null : <ErrorList id={errorId} errors={errors} />}
		</div>
	)
}
