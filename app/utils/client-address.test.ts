import { describe, expect, test } from 'vitest'
import { addressGroup, addressMatcher, clientAddress, parseCidr } from './client-address.ts'

describe('parseCidr', () => {
	test.each(['10.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', 'fd00::/8', '2001:db8::/128'])('%s is accepted', (entry) => {
		expect(parseCidr(entry)).not.toBeNull()
	})
	test.each(['', 'proxy', '10.0.0.0/33', '::/129', '10.0.0.0/8/1', '10.0.0.0/x', '10.0.0/8', '10.0.0.0/-1'])('%j is refused', (entry) => {
		expect(parseCidr(entry)).toBeNull()
	})
})

describe('clientAddress', () => {
	const trusted = addressMatcher(['10.0.0.0/8', '::1'])

	test('a peer that is not a trusted proxy is the client, whatever it forwards', () => {
		expect(clientAddress('203.0.113.9', '1.2.3.4', trusted)).toBe('203.0.113.9')
		expect(clientAddress('::ffff:203.0.113.9', null, trusted)).toBe('203.0.113.9')
	})

	test('behind trusted proxies the right-most untrusted entry is the client, never the first one the client wrote', () => {
		// The client wrote 1.1.1.1 itself; the edge proxy appended the address it saw, 198.51.100.7.
		expect(clientAddress('10.0.0.2', '1.1.1.1, 198.51.100.7', trusted)).toBe('198.51.100.7')
		expect(clientAddress('::ffff:10.0.0.2', '1.1.1.1, 198.51.100.7, 10.0.0.5', trusted)).toBe('198.51.100.7')
		expect(clientAddress('::1', '2001:db8::7', trusted)).toBe('2001:db8::7')
	})

	test('a chain of trusted hops only, or garbage, falls back to the nearest address a trusted proxy gave', () => {
		expect(clientAddress('10.0.0.2', '10.0.0.3', trusted)).toBe('10.0.0.3')
		expect(clientAddress('10.0.0.2', 'not-an-address', trusted)).toBe('10.0.0.2')
		expect(clientAddress('10.0.0.2', '9.9.9.9, <script>, 10.0.0.9', trusted)).toBe('10.0.0.9')
		expect(clientAddress('10.0.0.2', '', trusted)).toBe('10.0.0.2')
	})

	test('with no proxies configured, the header is ignored', () => {
		expect(clientAddress('127.0.0.1', '1.2.3.4', addressMatcher([]))).toBe('127.0.0.1')
	})
})

describe('addressGroup', () => {
	test('an IPv4 address stands for itself; an IPv6 address for its /64, however it is written', () => {
		expect(addressGroup('192.0.2.7')).toBe('192.0.2.7')
		expect(addressGroup('::ffff:192.0.2.7')).toBe('192.0.2.7')
		expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
		expect(addressGroup('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64')
		expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(addressGroup('::1')).toBe('0:0:0:0::/64')
		expect(addressGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
		expect(addressGroup('1:2::4:5:6:192.0.2.1')).toBe('1:2:0:4::/64')
		expect(addressGroup('2001:db8:1:2:3:4:5:6')).not.toBe(addressGroup('2001:db8:1:3:3:4:5:6'))
	})
})
