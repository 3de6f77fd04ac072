/**
 * Runs `task` every `intervalMs` in the background: never two runs at once, a failure is logged and the next run comes,
 * and the timer does not keep the process alive. Returns the function that stops it (at shutdown).
 */
export function runPeriodically(name: string, task: () => Promise<unknown>, intervalMs: number) {
	let running = false
	const timer = setInterval(() => {
		if (running) return
		running = true
		task()
			.catch((error: unknown) => console.warn(`[${name}] run failed:`, error))
			.finally(() => {
				running = false
			})
	}, intervalMs)
	timer.unref()
	return () => clearInterval(timer)
}
