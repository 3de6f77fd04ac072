import { BlockList, isIP } from 'node:net'

/** An address ('10.0.0.1', '::1') or a range ('10.0.0.0/8', 'fd00::/8'), as TRUSTED_PROXIES lists them. */
export function parseCidr(entry: string) {
	const [address = '', prefixText, ...rest] = entry.split('/')
	const family = isIP(address)
	if (!family || rest.length) return null
	const max = family === 4 ? 32 : 128
	const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN
	if (!(prefix >= 0 && prefix <= max)) return null
	return { address, prefix, type: family === 4 ? ('ipv4' as const) : ('ipv6' as const) }
}

/** '::ffff:10.0.0.1' is how Node shows an IPv4 peer on a dual-stack socket: compared as 10.0.0.1. */
export function normalizeAddress(address: string) {
	const trimmed = address.trim()
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)
	return mapped ? mapped[1]! : trimmed
}

export function addressMatcher(entries: string[]) {
	const list = new BlockList()
	for (const entry of entries) {
		const cidr = parseCidr(entry)
		if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.type)
	}
	return (address: string) => {
		const normalized = normalizeAddress(address)
		const family = isIP(normalized)
		return family !== 0 && list.check(normalized, family === 4 ? 'ipv4' : 'ipv6')
	}
}

/**
 * The client behind any trusted proxies. Each trusted proxy appends the address it received the request from, so the
 * right-most entry of X-Forwarded-For that is not a trusted proxy is the first address nobody we trust can vouch
 * beyond; anything left of it was written by the client and is ignored. A peer we do not trust is the client itself.
 */
export function clientAddress(peer: string, forwardedFor: string | null, isTrusted: (address: string) => boolean) {
	const client = normalizeAddress(peer)
	if (!isTrusted(client) || !forwardedFor) return client
	let nearest = client
	for (const hop of forwardedFor.slice(0, 4096).split(',').reverse()) {
		const address = normalizeAddress(hop)
		if (!isIP(address)) return nearest
		if (!isTrusted(address)) return address
		nearest = address
	}
	return nearest
}

/**
 * The network an address stands for when counting what one sender does: an IPv4 address itself, an IPv6 address's
 * /64 (one home or phone usually holds a whole /64, and can take any address in it).
 */
export function addressGroup(address: string) {
	const normalized = normalizeAddress(address)
	if (isIP(normalized) !== 6) return normalized
	// A dotted quad at the end (::ffff:… aside, e.g. 64:ff9b::192.0.2.1) is the last two hextets.
	const hex = normalized.toLowerCase().replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
		[
			[a, b],
			[c, d],
		]
			.map(([x, y]) => ((Number(x) << 8) | Number(y)).toString(16))
			.join(':'),
	)
	const [head = '', tail = ''] = hex.split('::')
	const front = head ? head.split(':') : []
	const back = tail ? tail.split(':') : []
	const hextets = hex.includes('::') ? [...front, ...Array(8 - front.length - back.length).fill('0'), ...back] : front
	return `${hextets
		.slice(0, 4)
		.map((h) => h.replace(/^0+(?=.)/, ''))
		.join(':')}::/64`
}
