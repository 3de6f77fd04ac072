import { spawn } from 'node:child_process'
import { readFileSync, readlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'

/*
 * Restarting the load test's throwaway PostgreSQL (scripts/bench-kit.ts started it): stopped with pg_ctl's fast mode,
 * as an operator or a failover does, then started again with the options it ran with.
 */

export type Cluster = { data: string; bin: string; log: string }

/** The cluster bench-kit's startThrowawayPostgres started: its data folder sits beside its log, its binaries are the postmaster's. */
export function clusterOf(started: { pid: number; log: string }): Cluster {
	return { data: join(dirname(started.log), 'data'), bin: dirname(readlinkSync(`/proc/${started.pid}/exe`)), log: started.log }
}

/** pg_ctl without blocking the event loop (the clients keep sending meanwhile); as root, as the postgres user. */
function pgCtl(cluster: Cluster, args: string[]) {
	const tool = join(cluster.bin, 'pg_ctl')
	const [command, commandArgs] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args]
	return new Promise<void>((resolve, reject) => {
		const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
		let output = ''
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
		child.on('error', reject)
		child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.join(' ')} failed (${code}):\n${output}`))))
	})
}

/** The server's own command line, as pg_ctl restart reuses it: postmaster.opts without the binary and its data folder. */
function startOptions(cluster: Cluster) {
	const line = readFileSync(join(cluster.data, 'postmaster.opts'), 'utf8').trim()
	const args = line.match(/"(?:[^"\\]|\\.)*"/g) ?? []
	const options: string[] = []
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '"-D"') i++
		else options.push(args[i]!)
	}
	return options.join(' ')
}

export async function stopPostgres(cluster: Cluster) {
	const options = startOptions(cluster)
	await pgCtl(cluster, ['-D', cluster.data, '-m', 'fast', '-w', 'stop'])
	return options
}

export async function startPostgres(cluster: Cluster, options: string) {
	await pgCtl(cluster, ['-D', cluster.data, '-l', cluster.log, '-w', 'start', '-o', options])
}
