import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { pathToFileURL } from 'node:url'

/**
 * The code that starts a worker thread (`new Worker(code, { eval: true })`) on a TypeScript module of the repository.
 * In production the app's modules are bundled into build/server/index.js, where no worker file sits beside them; the
 * server runs from the repository root, where tsx is installed, so the worker starts from its source file under the
 * working directory (the same in vitest and the dev server). Node 20 applies no module hooks to a worker's entry point:
 * neither `execArgv: ['--import', 'tsx']` nor the parent's own tsx, so a two-line bootstrap loads it through tsx's API.
 */
export function tsWorkerBootstrap(file: string) {
	const url = JSON.stringify(pathToFileURL(file).href)
	return `import('tsx/esm/api').then(({ tsImport }) => tsImport(${url}, ${url}))`
}

/** Linux keeps a nice value per thread: a worker that calls this gives way to the main thread (and PostgreSQL) when the cores are busy. */
export function giveWayToMainThread(nice = 10) {
	try {
		const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
		if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, nice)
	} catch {
		// Not Linux: the worker runs at the process's priority.
	}
}
