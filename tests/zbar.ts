import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** Decodes a PNG with Debian's zbarimg (zbar-tools), a real decoder; '' when it finds no symbol (its exit code 4). */
export async function decodeQr(png: Buffer) {
	// zbarimg reads files only; the file's folder goes as soon as it is read, so no run leaves one behind.
	const dir = await mkdtemp(join(tmpdir(), 'hmh-zbar-'))
	const file = join(dir, 'code.png')
	try {
		await writeFile(file, png)
		return (await promisify(execFile)('zbarimg', ['--raw', '-q', file])).stdout.trimEnd()
	} catch (error) {
		if ((error as { code?: unknown }).code === 4) return ''
		throw error
	} finally {
		await rm(dir, { recursive: true, force: true })
	}
}
