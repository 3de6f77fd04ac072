import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// N=2^15, r=8, p=1: OWASP's scrypt minimum; about 32 MiB and ~50 ms per hash on this hardware.
const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }
const KEY_LENGTH = 64

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions) {
	return new Promise<Buffer>((resolve, reject) =>
		scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
	)
}

/** Format: scrypt$N$r$p$salt$hash (base64url), so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string) {
	const salt = randomBytes(16)
	const key = await scrypt(password, salt, KEY_LENGTH, PARAMS)
	return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string | null | undefined) {
	// Hash anyway when there is no account, so timing does not reveal which e-mails exist.
	const parts = (stored ?? DUMMY_HASH).split('$')
	if (parts.length !== 6 || parts[0] !== 'scrypt') return false
	const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string]
	const expected = Buffer.from(hashText, 'base64url')
	const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
		N: Number(n),
		r: Number(r),
		p: Number(p),
		maxmem: PARAMS.maxmem,
	})
	return stored != null && timingSafeEqual(actual, expected)
}

const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`
