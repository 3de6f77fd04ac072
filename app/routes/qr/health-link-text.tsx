import { useState } from 'react'
import { cx } from '#app/ui/cx.ts'
import { buttonClass } from '#app/ui/forms.tsx'
import { useHydrated } from '#app/utils/use-hydrated.ts'

/** The link as text, selected in one click to copy; with JavaScript a Copy button does it. */
export function LinkText({ id, text }: { id: string; text: string }) {
	const hydrated = useHydrated()
	const [copied, setCopied] = useState(false)
	return (
		<div>
			<label htmlFor={id} className="mb-1 block text-sm font-semibold text-gray-800">
				Link to copy
			</label>
			<textarea
				id={id}
				readOnly
				rows={3}
				value={text}
				onFocus={(e) => e.currentTarget.select()}
				className="block w-full rounded-md border border-gray-400 bg-white px-3 py-2 font-mono text-xs break-all text-gray-900"
			/>
			{hydrated ? (
				<button
					type="button"
					className={buttonClass('secondary', cx('min-h-9 px-3 py-1 text-sm', 'mt-2'))}
					onClick={() =>
						void navigator.clipboard.writeText(text).then(
							() => setCopied(true),
							() => setCopied(false),
						)
					}
				>
					{copied ? 'Copied' : 'Copy link'}
				</button>
			) : null}
		</div>
	)
}
