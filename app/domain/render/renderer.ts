import { runTask, type RenderTask } from './tasks.ts'

/*
 * A renderer process (started by pool.server.ts from this source file, under SCHED_IDLE where Linux has it): a
 * thousand codes, a lock screen or a large uploaded PDF take CPU and memory that must never hold up the server's
 * responders. One task at a time, over the IPC channel (structured clone: bytes arrive as a Uint8Array that may be a
 * view into the larger message).
 */
export type RenderRequest = { id: number; task: RenderTask }
/** A task's answer: what it made, or (it threw) the error's stack, for the server's log. */
export type RenderReply = { id: number; outcome: 'made'; result: unknown } | { id: number; outcome: 'failed'; message: string }

const send = process.send?.bind(process)
if (!send) throw new Error('renderer.ts runs as a child process with an IPC channel')

process.on('message', async ({ id, task }: RenderRequest) => {
	try {
		send({ id, outcome: 'made', result: await runTask(task) } satisfies RenderReply)
	} catch (error) {
		const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
		send({ id, outcome: 'failed', message } satisfies RenderReply)
	}
})
// The server going away closes the channel: nothing is left to render for.
process.on('disconnect', () => process.exit(0))
