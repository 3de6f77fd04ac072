import { sql, type SQL } from 'drizzle-orm'
import { db, instant, rowsOf, type Executor } from '#db/client.ts'
import { qrScans, rollupState, scanHourly, visitHourly, visitorDaily, visitorHourly, visits } from '#db/schema.ts'
import { etDayBounds, etDaysBetween, floorHour, HOUR_MS } from './et-time.ts'

const STATE = 'analytics'
/** Page views wait in memory up to a second before they are written: an hour is closed two minutes after it ends. */
const GRACE_MS = 2 * 60_000
/** One run does at most a week of hours, so a long catch-up is many short transactions. */
const MAX_HOURS_PER_RUN = 24 * 7
/** pg_try_advisory_xact_lock's key: one instance at a time rebuilds, the others skip. */
const LOCK_KEY = 726_354_001

/** A visit that counts for "real users": a person, not the owner, not from an excluded address. */
export const REAL_VISIT = sql`(not ${visits.isBot} and not ${visits.isOwner} and not ${visits.isExcluded})`

const VISIT_DIMENSIONS = sql.raw(`('all', 'path', 'browser', 'device', 'referrer', 'email')`)
const SCAN_DIMENSIONS = sql.raw(`('all', 'scanner', 'device')`)

const hourOf = (column: SQL | typeof visits.visitedAt | typeof qrScans.scannedAt) => sql`date_trunc('hour', ${column}, 'UTC')`

/** Where every table is final: hours before it come from the rollups, later ones from the raw rows. */
export async function rolledUpUntil(executor: Executor = db) {
	const [row] = await executor
		.select({ doneUntil: rollupState.doneUntil })
		.from(rollupState)
		.where(sql`${rollupState.name} = ${STATE}`)
	return row?.doneUntil ?? new Date(0)
}

async function firstHour(tx: Executor, fallback: Date) {
	const [row] = rowsOf<{ first: string | Date | null }>(
		await tx.execute(
			sql`select least((select min(${visits.visitedAt}) from ${visits}), (select min(${qrScans.scannedAt}) from ${qrScans})) as first`,
		),
	)
	const first = row?.first
	return first ? floorHour(new Date(first)) : fallback
}

/** Rebuilds every rollup row of [from, to) from the raw tables: run twice, the same rows. */
export async function rebuildHours(tx: Executor, from: Date, to: Date) {
	const inVisits = sql`${visits.visitedAt} >= ${instant(from)} and ${visits.visitedAt} < ${instant(to)}`
	// The primary key leads with the dimension: naming them all lets the delete use it instead of scanning history.
	await tx.execute(
		sql`delete from ${visitHourly} where ${visitHourly.dimension} in ${VISIT_DIMENSIONS} and ${visitHourly.hour} >= ${instant(from)} and ${visitHourly.hour} < ${instant(to)}`,
	)
	await tx.execute(sql`
		insert into ${visitHourly} (hour, dimension, value, visits, real_visits, bot_visits, owner_visits, excluded_visits, last_visit_at, last_real_visit_at)
		select ${hourOf(visits.visitedAt)}, d.dimension, d.value,
			count(*) filter (where not ${visits.isBot}),
			count(*) filter (where ${REAL_VISIT}),
			count(*) filter (where ${visits.isBot}),
			count(*) filter (where not ${visits.isBot} and ${visits.isOwner}),
			count(*) filter (where not ${visits.isBot} and not ${visits.isOwner} and ${visits.isExcluded}),
			max(${visits.visitedAt}) filter (where not ${visits.isBot}),
			max(${visits.visitedAt}) filter (where ${REAL_VISIT})
		from ${visits}
		cross join lateral (values
			('all', ''),
			('path', ${visits.path}),
			('browser', coalesce(${visits.browser}, 'Other')),
			('device', coalesce(${visits.deviceType}, 'desktop')),
			('referrer', ${visits.referrerHost}),
			('email', case when ${visits.emailId} is not null then '1' end)
		) as d(dimension, value)
		where ${inVisits} and d.value is not null and (d.dimension = 'all' or not ${visits.isBot})
		group by 1, 2, 3`)
	await tx.execute(
		sql`delete from ${visitorHourly} where ${visitorHourly.hour} >= ${instant(from)} and ${visitorHourly.hour} < ${instant(to)}`,
	)
	await tx.execute(sql`
		insert into ${visitorHourly} (hour, visitor_hash, is_real, is_first_visit, from_email, visits)
		select ${hourOf(visits.visitedAt)}, ${visits.visitorHash}, bool_or(${REAL_VISIT}), bool_or(${visits.isFirstVisit}),
			bool_or(${visits.emailId} is not null), count(*)
		from ${visits}
		where ${inVisits} and not ${visits.isBot}
		group by 1, 2`)
	await tx.execute(
		sql`delete from ${scanHourly} where ${scanHourly.dimension} in ${SCAN_DIMENSIONS} and ${scanHourly.hour} >= ${instant(from)} and ${scanHourly.hour} < ${instant(to)}`,
	)
	await tx.execute(sql`
		insert into ${scanHourly} (hour, dimension, value, scans, emergency_scans, last_scan_at)
		select ${hourOf(qrScans.scannedAt)}, d.dimension, d.value, count(*), count(*) filter (where ${qrScans.isEmergencyAccess}),
			max(${qrScans.scannedAt})
		from ${qrScans}
		cross join lateral (values
			('all', ''),
			('scanner', coalesce(${qrScans.scannerType}, 'unknown')),
			('device', coalesce(${qrScans.deviceType}, 'unknown'))
		) as d(dimension, value)
		where ${qrScans.scannedAt} >= ${instant(from)} and ${qrScans.scannedAt} < ${instant(to)}
		group by 1, 2, 3`)
	// Every ET day that ends by `to` and has an hour in [from, to) is now whole: its distinct visitors are final.
	for (const day of etDaysBetween(from, to)) {
		const bounds = etDayBounds(day)
		if (bounds.end > to) continue
		await tx.execute(sql`delete from ${visitorDaily} where ${visitorDaily.day} = ${day}`)
		await tx.execute(sql`
			insert into ${visitorDaily} (day, visitors, real_users, first_time_visitors, returning_visitors, email_visitors)
			select ${day}, count(*), count(*) filter (where r), count(*) filter (where f), count(*) filter (where not f), count(*) filter (where e)
			from (
				select bool_or(${visitorHourly.isReal}) as r, bool_or(${visitorHourly.isFirstVisit}) as f, bool_or(${visitorHourly.fromEmail}) as e
				from ${visitorHourly}
				where ${visitorHourly.hour} >= ${instant(bounds.start)} and ${visitorHourly.hour} < ${instant(bounds.end)}
				group by ${visitorHourly.visitorHash}
			) as v`)
	}
}

/**
 * Page views written late (held in memory through a database outage) land in hours the rollup may have finished:
 * the mark moves back to the earliest of them, and the next run rebuilds from there.
 */
export async function reopenRollupFrom(at: Date) {
	await db
		.update(rollupState)
		.set({ doneUntil: sql`least(${rollupState.doneUntil}, ${instant(floorHour(at))})` })
		.where(sql`${rollupState.name} = ${STATE}`)
}

/** Rows whose time is older than this when written may have missed their hour's rollup. */
export const LATE_AFTER_MS = GRACE_MS / 2

export type RollupRun = { from: Date; to: Date } | null

/**
 * One step of the rollup job: rebuilds the hours after the last finished one, up to the hour that closed two minutes
 * ago (at most a week per run), and moves the mark. Idempotent and safe on any number of instances: one holds the lock,
 * the others return null at once. Returns the hours done ({from, to} equal when there was nothing to do).
 */
export async function rollUpStep(now = new Date()): Promise<RollupRun> {
	return db.transaction(async (tx) => {
		const [lock] = rowsOf<{ locked: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`))
		if (!lock?.locked) return null
		const target = floorHour(new Date(now.getTime() - GRACE_MS))
		const [state] = await tx
			.select({ doneUntil: rollupState.doneUntil })
			.from(rollupState)
			.where(sql`${rollupState.name} = ${STATE}`)
			.for('update')
		let from = state?.doneUntil
		if (!from) {
			from = await firstHour(tx, target)
			await tx.insert(rollupState).values({ name: STATE, doneUntil: from })
		}
		const to = new Date(Math.min(target.getTime(), from.getTime() + MAX_HOURS_PER_RUN * HOUR_MS))
		if (to <= from) return { from, to: from }
		await rebuildHours(tx, from, to)
		await tx
			.update(rollupState)
			.set({ doneUntil: to })
			.where(sql`${rollupState.name} = ${STATE}`)
		return { from, to }
	})
}

/** Runs rollUpStep until every closed hour is done (startup after downtime, the benchmark). */
export async function rollUpAll(now = new Date()) {
	let hours = 0
	for (;;) {
		const run = await rollUpStep(now)
		if (!run || run.to <= run.from) return hours
		hours += (run.to.getTime() - run.from.getTime()) / HOUR_MS
	}
}
