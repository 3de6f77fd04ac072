/** The owner's new recovery codes, shown once, each in its own box. */
export function RecoveryCodeList({ codes, className }: { codes: readonly string[]; className: string }) {
	return (
		<ul aria-label="Recovery codes" className={className}>
			{codes.map((code) => (
				<li key={code} className="rounded border border-gray-300 bg-gray-50 px-2 py-1 text-center">
					{code}
				</li>
			))}
		</ul>
	)
}
