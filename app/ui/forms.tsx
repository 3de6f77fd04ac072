import {
	Children,
	cloneElement,
	isValidElement,
	useContext,
	useEffect,
	useId,
	useRef,
	useState,
	type ComponentProps,
	type InputHTMLAttributes,
	type ButtonHTMLAttributes,
	type ReactNode,
} from 'react'
import { Meta, UNSAFE_DataRouterContext, UNSAFE_DataRouterStateContext, useFetchers, useLocation, useNavigation } from 'react-router'
import { cx } from './cx.ts'
import { useFocusOnError } from './focus-fields.ts'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

/*
 * A refused submission, wherever it happens: each message is beside its field, whose control says aria-invalid, and
 * focus starts on the first such control (or, when the refusal belongs to no field, on the form's error summary), with
 * or without JavaScript; the page's title then starts with "Error: ". Buttons are never disabled to stop a submission:
 * the answer says what is wrong instead.
 */

/** A page action's answer that refused its form: the submission's reply with errors (replyError, a failed parse). */
const isRefusal = (answer: unknown) => (answer as { result?: { status?: string } } | null)?.result?.status === 'error'

/** A form's own errors, when no field has one: focus goes here after the refusal. */
const SUMMARY = 'data-form-errors'

/**
 * Once a posted form's answer is drawn (its library may apply it in an effect: hence the next task), focus goes to its
 * first control with an error, else its error summary, unless it is on one already. A form drawn anew is found by its
 * id, else the page's first is taken. Calls back with whether the form shows a refusal.
 */
function focusRefusal(submitted: HTMLFormElement, refused: (shown: boolean) => void) {
	setTimeout(() => {
		const form = submitted.isConnected ? submitted : (submitted.id && document.getElementById(submitted.id)) || document
		const target = form.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.querySelector<HTMLElement>(`[${SUMMARY}]`)
		if (target && !form.querySelector('[aria-invalid="true"]:focus')) target.focus()
		refused(Boolean(target))
	})
}

/**
 * Whether the page shows a refused submission. The server knows it from the action's answer in the router state (a
 * form posted without JavaScript). In the browser, each posted form's answer (a navigation's, a fetcher's, or the
 * form's own check that kept it from being sent) moves the focus (focusRefusal) and decides the title until the
 * address changes.
 */
function useRefusedSubmission() {
	const fetchers = useFetchers()
	const posted = [useNavigation(), ...fetchers].some((s) => s.formMethod && s.formMethod !== 'GET')
	const answers = useContext(UNSAFE_DataRouterStateContext)?.actionData
	const router = useContext(UNSAFE_DataRouterContext)?.router
	const { pathname, search } = useLocation()
	const [shown, setShown] = useState<boolean>()
	const sending = useRef<HTMLFormElement>(null)
	useEffect(() => setShown(undefined), [pathname, search])
	useEffect(() => {
		const onSubmit = ({ target, submitter }: SubmitEvent) => {
			if (!(target instanceof HTMLFormElement) || ((submitter as HTMLButtonElement | null)?.formMethod || target.method) === 'get') return
			sending.current = target
			// The router starts sending at once: a form it is not sending by the next task was kept by its own check.
			setTimeout(() => {
				const { navigation, fetchers } = router?.state ?? {}
				if ([navigation, ...(fetchers?.values() ?? [])].some((s) => s?.state === 'submitting')) return
				sending.current = null
				focusRefusal(target, setShown)
			})
		}
		document.addEventListener('submit', onSubmit, true)
		return () => document.removeEventListener('submit', onSubmit, true)
	}, [router])
	// The answer is in once nothing is posted any more and the router's data has changed (its states may come in one render).
	useEffect(() => {
		if (posted || !sending.current) return
		focusRefusal(sending.current, setShown)
		sending.current = null
	}, [posted, answers, fetchers])
	return shown ?? Object.values(answers ?? {}).some(isRefusal)
}

/**
 * React Router's meta tags for the page, its one title starting with "Error: " while the page shows a refused
 * submission (React keeps the first <title> it renders, so the prefix goes on Meta's own). Meta is called as a
 * function to reach its title; its hooks are this component's.
 */
export function PageMeta() {
	const refused = useRefusedSubmission()
	const tags = Meta()
	return Children.map(tags.props.children, (tag: ReactNode) =>
		refused && isValidElement<{ children: string }>(tag) && tag.type === 'title'
			? cloneElement(tag, {}, `Error: ${tag.props.children}`)
			: tag,
	)
}

/**
 * A field's or a form's errors. `alert` is for a form's own errors (a refused sign-in, a failed save): they are
 * announced as they appear, and take the focus after the refusal when no field has an error; a field's errors are
 * read with the field instead (aria-describedby).
 */
export function ErrorList({ id, errors, alert = false }: { id?: string; errors?: ListOfErrors; alert?: boolean }) {
	const shown = errors?.filter(Boolean)
	const focus = useFocusOnError(alert && Boolean(shown?.length))
	if (!shown?.length) return null
	const list = (
		<ul id={id} className="mt-1 space-y-1">
			{shown.map((e) => (
				<li key={e} className="text-sm font-medium text-red-700">
					{e}
				</li>
			))}
		</ul>
	)
	return alert ? (
		<div role="alert" tabIndex={-1} autoFocus={focus} {...{ [SUMMARY]: '' }}>
			{list}
		</div>
	) : (
		list
	)
}

const labelClass = 'mb-1 block text-sm font-semibold text-gray-800'

/**
 * The id a control gets and the attributes that tie it to its hint and error list (aria-describedby). After a refused
 * submission the first control with an error takes the focus.
 */
function useControl(given: { id?: string; autoFocus?: boolean }, errors?: ListOfErrors, hasHint = false) {
	const fallback = useId()
	const id = given.id ?? fallback
	const errorId = errors?.filter(Boolean).length ? `${id}-error` : undefined
	const hintId = hasHint ? `${id}-hint` : undefined
	const focus = useFocusOnError(Boolean(errorId)) || undefined
	return {
		id,
		errorId,
		hintId,
		attributes: {
			id,
			autoFocus: focus ?? given.autoFocus,
			'aria-invalid': errorId ? true : undefined,
			'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
		},
	}
}

/** A control under its label, with its errors below it. */
function Labelled({
	id,
	label,
	errorId,
	errors,
	className,
	children,
}: {
	id: string
	label: ReactNode
	errorId?: string
	errors?: ListOfErrors
	className?: string
	children: ReactNode
}) {
	return (
		<div className={className}>
			<label htmlFor={id} className={labelClass}>
				{label}
			</label>
			{children}
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

export const inputClass =
	'block w-full rounded-md border border-gray-400 bg-white px-3 py-2 text-base text-gray-900 shadow-sm placeholder:text-gray-500 focus:border-blue-600 aria-[invalid=true]:border-red-600'

export function Field({
	label,
	inputProps,
	errors,
	hint,
	className,
}: {
	label: ReactNode
	inputProps: ComponentProps<'input'>
	errors?: ListOfErrors
	hint?: ReactNode
	className?: string
}) {
	const { id, errorId, hintId, attributes } = useControl(inputProps, errors, Boolean(hint))
	return (
		<Labelled id={id} label={label} errorId={errorId} errors={errors} className={className}>
			<input {...inputProps} {...attributes} className={cx(inputClass, inputProps.className)} />
			{hint ? (
				<div id={hintId} className="mt-1 text-sm text-gray-600">
					{hint}
				</div>
			) : null}
		</Labelled>
	)
}

export function CheckboxField({
	label,
	inputProps,
	errors,
}: {
	label: ReactNode
	inputProps: InputHTMLAttributes<HTMLInputElement>
	errors?: ListOfErrors
}) {
	const { id, errorId, attributes } = useControl(inputProps, errors)
	return (
		<div>
			<div className="flex items-start gap-3">
				<input {...inputProps} type="checkbox" {...attributes} className="mt-1 size-5 shrink-0 accent-red-700" />
				<label htmlFor={id} className="text-sm text-gray-800">
					{label}
				</label>
			</div>
			<ErrorList id={errorId} errors={errors} />
		</div>
	)
}

const variants = {
	primary: 'bg-brand-700 text-white hover:bg-brand-800',
	secondary: 'border border-gray-400 bg-white text-gray-900 hover:bg-gray-50',
	blue: 'bg-blue-700 text-white hover:bg-blue-800',
	green: 'bg-green-700 text-white hover:bg-green-800',
	ghost: 'text-gray-800 hover:bg-gray-100',
} as const
export type ButtonVariant = keyof typeof variants

export function buttonClass(variant: ButtonVariant = 'primary', extra?: string) {
	return cx(
		// Disabled reads as "not yet", in plain grey, rather than a faded colour that looks broken.
		'inline-flex min-h-11 items-center justify-center gap-2 rounded-md px-4 py-2 text-base font-semibold transition-colors disabled:cursor-not-allowed disabled:border disabled:border-gray-300 disabled:bg-gray-100 disabled:text-gray-600',
		variants[variant],
		extra,
	)
}

/**
 * A button that shows it is busy. Given an `intent`, it submits its form with `intent=<intent>`: the action tells the
 * forms of a page apart by it.
 */
export function StatusButton({
	pending,
	pendingLabel,
	children,
	variant = 'primary',
	className,
	intent,
	...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { pending?: boolean; pendingLabel?: string; variant?: ButtonVariant; intent?: string }) {
	return (
		<button
			{...(intent === undefined ? {} : { type: 'submit', name: 'intent', value: intent })}
			{...props}
			aria-disabled={pending || undefined}
			disabled={props.disabled}
			className={buttonClass(variant, className)}
			onClick={(e) => {
				if (pending) e.preventDefault()
				props.onClick?.(e)
			}}
		>
			{pending && pendingLabel ? pendingLabel : children}
		</button>
	)
}

export function SelectField({
	label,
	selectProps,
	options,
	errors,
	placeholder,
	className,
}: {
	label: ReactNode
	selectProps: React.SelectHTMLAttributes<HTMLSelectElement>
	options: ReadonlyArray<{ value: string; label: string }>
	errors?: ListOfErrors
	placeholder?: string
	className?: string
}) {
	const { id, errorId, attributes } = useControl(selectProps, errors)
	return (
		<Labelled id={id} label={label} errorId={errorId} errors={errors} className={className}>
			<select {...selectProps} {...attributes} className={cx(inputClass, selectProps.className)}>
				{placeholder !== undefined ? <option value="">{placeholder}</option> : null}
				{options.map((o) => (
					<option key={o.value} value={o.value}>
						{o.label}
					</option>
				))}
			</select>
		</Labelled>
	)
}

export function TextareaField({
	label,
	textareaProps,
	errors,
	className,
}: {
	label: ReactNode
	textareaProps: React.TextareaHTMLAttributes<HTMLTextAreaElement>
	errors?: ListOfErrors
	className?: string
}) {
	const { id, errorId, attributes } = useControl(textareaProps, errors)
	return (
		<Labelled id={id} label={label} errorId={errorId} errors={errors} className={className}>
			<textarea rows={4} {...textareaProps} {...attributes} className={cx(inputClass, textareaProps.className)} />
		</Labelled>
	)
}

export const options = (values: readonly string[], labels?: Record<string, string>) =>
	values.map((value) => ({ value, label: labels?.[value] ?? value }))
