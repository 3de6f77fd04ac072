import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const dir = mkdtempSync(join(tmpdir(), 'hmh-zbar-'))
let files = 0

/** Decodes a PNG with Debian's zbarimg (zbar-tools), a real decoder; '' when it finds no symbol (its exit code 4). */
export async function decodeQr(png: Buffer) {
	const file = join(dir, `${process.pid}-${++files}.png`)
	writeFileSync(file, png)
	try {
		return (await promisify(execFile)('zbarimg', ['--raw', '-q', file])).stdout.trimEnd()
	} catch (error) {
		if ((error as { code?: unknown }).code === 4) return ''
		throw error
	}
}
