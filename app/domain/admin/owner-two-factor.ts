export const TOTP_PERIOD_SECONDS = 30
export const RECOVERY_CODE_COUNT = 10
export const WRONG_CODE = 'That code is not right. Enter the current 6-digit code from your authenticator app, or a recovery code.'

/** Recovery codes are printed as XXXXX-XXXXX; typed with or without the dash, in any case, with stray spaces. */
export const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase()
