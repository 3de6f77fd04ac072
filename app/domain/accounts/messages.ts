// Texts a page shows without loading the schemas (and zod with them).

export const LINK_NOT_VALID = 'This link has expired or has already been used. Ask for a new one on your Profile page.'
