/** Spec 002 §6: what everyone but the owner is told at the admin area's door. */
export const OWNER_ONLY = 'Only the platform owner can access administrative features.'
