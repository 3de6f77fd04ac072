import { useRef, useState, type ReactNode } from 'react'
import { Form } from 'react-router'

/**
 * A form whose answer is a file. Without JavaScript the browser downloads it and stays on the page; with it, the file
 * is fetched with a progress bar and saved. An answer that is not a file (a refusal) is shown by submitting again the
 * plain way, so its messages appear beside the fields.
 */
export function DownloadForm({
	action,
	children,
	className,
	label,
}: {
	action: string
	children: ReactNode
	className?: string
	label: string
}) {
	const [progress, setProgress] = useState<number | null>(null)
	const plain = useRef(false)
	return (
		<Form
			method="post"
			action={action}
			reloadDocument
			className={className}
			onSubmit={async (event) => {
				if (plain.current) return
				const form = event.currentTarget
				const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null
				event.preventDefault()
				const body = new FormData(form, submitter)
				setProgress(0)
				try {
					const response = await fetch(form.action, { method: 'POST', body })
					const disposition = response.headers.get('content-disposition') ?? ''
					if (!response.ok || !disposition.startsWith('attachment') || !response.body) throw new Error('not a file')
					const total = Number(response.headers.get('content-length')) || 0
					const reader = response.body.getReader()
					const chunks: Uint8Array[] = []
					let received = 0
					for (;;) {
						const { done, value } = await reader.read()
						if (done) break
						chunks.push(value)
						received += value.byteLength
						if (total) setProgress(Math.round((received / total) * 100))
					}
					const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download'
					const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? '' }))
					const link = Object.assign(document.createElement('a'), { href: url, download: name })
					link.click()
					setTimeout(() => URL.revokeObjectURL(url), 10_000)
					setProgress(100)
					setTimeout(() => setProgress(null), 5_000)
				} catch {
					setProgress(null)
					plain.current = true
					form.requestSubmit(submitter ?? undefined)
					plain.current = false
				}
			}}
		>
			{children}
			{progress !== null ? (
				<div className="mt-2">
					<div
						role="progressbar"
						aria-label={label}
						aria-valuenow={progress}
						aria-valuemin={0}
						aria-valuemax={100}
						className="h-2 rounded-full bg-gray-200"
					>
						<div className="h-2 rounded-full bg-blue-700 transition-all" style={{ width: `${Math.max(progress, 3)}%` }} />
					</div>
					<p className="mt-1 text-sm text-gray-700" aria-live="polite">
						{progress < 100 ? 'Preparing the file…' : 'Saved.'}
					</p>
				</div>
			) : null}
		</Form>
	)
}
