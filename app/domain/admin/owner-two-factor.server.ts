import { randomBytes, randomInt } from 'node:crypto'
import { getTOTPAuthUri, verifyTOTP } from '@epic-web/totp'
import { z } from 'zod'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { db } from '#db/client.ts'
import { ownerRecoveryCodes, ownerSettings } from '#db/schema.ts'
import { DomainError } from '#app/utils/errors.ts'
import { hashPassword, verifyPassword } from '#app/utils/password.server.ts'
import { countGuess, type GuessSource } from '#app/utils/rate-limit.server.ts'
import { RECOVERY_CODE_COUNT, TOTP_PERIOD_SECONDS, normalizeRecoveryCode, WRONG_CODE } from './owner-two-factor.ts'

const ISSUER = 'Hit Me Helpers'
const TOTP = { period: TOTP_PERIOD_SECONDS, digits: 6, algorithm: 'SHA-1' } as const
/**
 * Five wrong codes in five minutes from one address (counted before checking, so guesses sent at once are counted too,
 * and handed back when right), fifty over all addresses for a browser that never passed the second factor: a 6-digit
 * code cannot be guessed at that pace, and a stranger's guesses never keep the owner out (countGuess).
 */
const WRONG_CODE_LIMIT = 5
const WRONG_CODE_WINDOW_SECONDS = 300
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

export type TwoFactorState = { enabled: boolean; enabledAt: Date | null; recoveryCodesLeft: number }

export async function twoFactorState(userId: string): Promise<TwoFactorState> {
	const settings = await db.query.ownerSettings.findFirst({ columns: { totpEnabledAt: true }, where: eq(ownerSettings.userId, userId) })
	const enabledAt = settings?.totpEnabledAt ?? null
	if (!enabledAt) return { enabled: false, enabledAt: null, recoveryCodesLeft: 0 }
	const [left] = await db
		.select({ count: sql<number>`count(*)::int` })
		.from(ownerRecoveryCodes)
		.where(and(eq(ownerRecoveryCodes.userId, userId), isNull(ownerRecoveryCodes.usedAt)))
	return { enabled: true, enabledAt, recoveryCodesLeft: left?.count ?? 0 }
}

/** RFC 4648 base32 without padding, as authenticator apps expect. */
function base32(bytes: Uint8Array) {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
	let bits = 0
	let value = 0
	let out = ''
	for (const byte of bytes) {
		value = (value << 8) | byte
		bits += 8
		while (bits >= 5) {
			out += alphabet[(value >>> (bits - 5)) & 31]
			bits -= 5
		}
	}
	if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
	return out
}

/**
 * Enrolment, step one: a new secret (160 bits, RFC 4226's recommendation) kept until a code from it is confirmed. Asking
 * again before confirming starts over with a fresh secret; once two-factor is on, it cannot be replaced this way.
 */
export async function startEnrolment(userId: string, accountName: string) {
	const current = await twoFactorState(userId)
	if (current.enabled) throw new DomainError(409, 'Two-factor sign-in is already on.')
	const secret = base32(randomBytes(20))
	await db
		.insert(ownerSettings)
		.values({ userId, totpSecret: secret })
		.onConflictDoUpdate({ target: ownerSettings.userId, set: { totpSecret: secret, totpEnabledAt: null, totpLastStep: null } })
	return { secret, otpauthUri: getTOTPAuthUri({ ...TOTP, secret, accountName, issuer: ISSUER }) }
}

/** The secret being enrolled (shown again while the owner has not confirmed it), or null. */
export async function pendingEnrolment(userId: string, accountName: string) {
	const settings = await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, userId) })
	if (!settings?.totpSecret || settings.totpEnabledAt) return null
	const secret = settings.totpSecret
	return { secret, otpauthUri: getTOTPAuthUri({ ...TOTP, secret, accountName, issuer: ISSUER }) }
}

async function countCode(userId: string, source: GuessSource) {
	const guess = await countGuess('owner-2fa', userId, source, WRONG_CODE_LIMIT, WRONG_CODE_WINDOW_SECONDS)
	if (!guess.allowed) throw new DomainError(429, 'Too many attempts. Please wait five minutes and try again.', 'code')
	return guess
}

/** The time step a code from `secret` is valid for now (±1 step of clock drift), or null. */
async function matchingStep(secret: string, code: string) {
	if (!/^\d{6}$/.test(code)) return null
	const now = Math.floor(Date.now() / 1000 / TOTP_PERIOD_SECONDS)
	const match = await verifyTOTP({ ...TOTP, otp: code, secret, window: 1 })
	return match ? now + match.delta : null
}

/**
 * Uses a time step at most once: the update succeeds only past the last step accepted, so the same code (or an
 * earlier one) replayed, even by two requests at once, is refused.
 */
async function consumeStep(userId: string, step: number) {
	const used = await db
		.update(ownerSettings)
		.set({ totpLastStep: step })
		.where(and(eq(ownerSettings.userId, userId), or(isNull(ownerSettings.totpLastStep), lt(ownerSettings.totpLastStep, step))))
		.returning({ userId: ownerSettings.userId })
	return used.length === 1
}

function newRecoveryCode() {
	let code = ''
	for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]
	return `${code.slice(0, 5)}-${code.slice(5)}`
}

async function replaceRecoveryCodes(userId: string) {
	const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
	const hashes = await Promise.all(codes.map((code) => hashPassword(normalizeRecoveryCode(code))))
	await db.transaction(async (tx) => {
		await tx.delete(ownerRecoveryCodes).where(eq(ownerRecoveryCodes.userId, userId))
		await tx.insert(ownerRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })))
	})
	return codes
}

/** Enrolment, step two: a code from the new secret turns two-factor on and returns the recovery codes, shown once. */
export async function confirmEnrolment(userId: string, code: string, source: GuessSource) {
	const settings = await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, userId) })
	if (settings?.totpEnabledAt) throw new DomainError(409, 'Two-factor sign-in is already on.')
	if (!settings?.totpSecret) throw new DomainError(409, 'Start again: there is no secret waiting to be confirmed.')
	const guess = await countCode(userId, source)
	const step = await matchingStep(settings.totpSecret, code.trim())
	if (step === null || !(await consumeStep(userId, step))) throw new DomainError(400, WRONG_CODE, 'code')
	await guess.forgive()
	const recoveryCodes = await replaceRecoveryCodes(userId)
	await db.update(ownerSettings).set({ totpEnabledAt: new Date() }).where(eq(ownerSettings.userId, userId))
	return { recoveryCodes }
}

/**
 * The second factor at sign-in: a current code (each time step once) or an unused recovery code (each once). Wrong
 * codes are limited per owner.
 */
export async function verifySecondFactor(
	userId: string,
	input: string,
	source: GuessSource,
): Promise<{ method: 'code' | 'recovery'; recoveryCodesLeft: number }> {
	const settings = await db.query.ownerSettings.findFirst({ where: eq(ownerSettings.userId, userId) })
	if (!settings?.totpEnabledAt || !settings.totpSecret) throw new DomainError(409, 'Two-factor sign-in is not on.')
	const guess = await countCode(userId, source)
	const code = input.trim()
	if (/^\d{6}$/.test(code)) {
		const step = await matchingStep(settings.totpSecret, code)
		if (step === null || !(await consumeStep(userId, step))) throw new DomainError(400, WRONG_CODE, 'code')
		await guess.forgive()
		return { method: 'code', recoveryCodesLeft: (await twoFactorState(userId)).recoveryCodesLeft }
	}
	const recovery = normalizeRecoveryCode(code)
	if (recovery.length !== 10) throw new DomainError(400, WRONG_CODE, 'code')
	const unused = await db
		.select({ id: ownerRecoveryCodes.id, codeHash: ownerRecoveryCodes.codeHash })
		.from(ownerRecoveryCodes)
		.where(and(eq(ownerRecoveryCodes.userId, userId), isNull(ownerRecoveryCodes.usedAt)))
	for (const row of unused) {
		if (!(await verifyPassword(recovery, row.codeHash))) continue
		const used = await db
			.update(ownerRecoveryCodes)
			.set({ usedAt: new Date() })
			.where(and(eq(ownerRecoveryCodes.id, row.id), isNull(ownerRecoveryCodes.usedAt)))
			.returning({ id: ownerRecoveryCodes.id })
		if (used.length !== 1) continue
		await guess.forgive()
		return { method: 'recovery', recoveryCodesLeft: unused.length - 1 }
	}
	throw new DomainError(400, WRONG_CODE, 'code')
}

/** New recovery codes (the old ones stop working), after a current code proves the owner holds the authenticator. */
export async function regenerateRecoveryCodes(userId: string, code: string, source: GuessSource) {
	const { method } = await verifySecondFactor(userId, code, source)
	if (method !== 'code') throw new DomainError(400, 'Enter a code from your authenticator app, not a recovery code.', 'code')
	return replaceRecoveryCodes(userId)
}

/** Turns two-factor off (a current code or a recovery code required); the secret and recovery codes are deleted. */
export async function disableTwoFactor(userId: string, code: string, source: GuessSource) {
	await verifySecondFactor(userId, code, source)
	await db.transaction(async (tx) => {
		await tx.delete(ownerRecoveryCodes).where(eq(ownerRecoveryCodes.userId, userId))
		await tx
			.update(ownerSettings)
			.set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
			.where(eq(ownerSettings.userId, userId))
	})
}

export const TwoFactorCodeSchema = z.object({
	code: z
		.string({ error: 'Enter the 6-digit code from your authenticator app.' })
		.trim()
		.min(6, 'Enter the 6-digit code from your authenticator app.')
		.max(32, WRONG_CODE),
})
