// The part of autocannon's programmatic API that scripts/bench-scan.ts uses (autocannon ships no types).
declare module 'autocannon' {
	type Stats = {
		average: number
		mean: number
		stddev: number
		min: number
		max: number
		total: number
		p50: number
		p90: number
		p97_5: number
		p99: number
	}
	export type Options = {
		url: string
		connections?: number
		duration?: number
		pipelining?: number
		timeout?: number
		headers?: Record<string, string>
	}
	export type Result = {
		requests: Stats
		latency: Stats
		throughput: Stats
		errors: number
		timeouts: number
		non2xx: number
		'2xx': number
		duration: number
	}
	function autocannon(options: Options): Promise<Result>
	export default autocannon
}
