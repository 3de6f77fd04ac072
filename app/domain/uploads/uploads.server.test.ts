import { expect, test } from 'vitest'
import { FORM_LIMIT } from '#app/utils/form-body.server.ts'
import { tooLargeMessage, UPLOAD_RULES, type UploadPurpose } from './file-type.ts'
import { MAX_REQUEST_BYTES, uploadLimit } from './uploads.server.ts'

test('every upload fits a page form and the server cap, and the page form names the largest limit', () => {
	const purposes = Object.keys(UPLOAD_RULES) as UploadPurpose[]
	for (const purpose of purposes) {
		expect(uploadLimit(purpose).maxBytes).toBeLessThanOrEqual(FORM_LIMIT.maxBytes)
		expect(uploadLimit(purpose).maxBytes).toBeLessThan(MAX_REQUEST_BYTES)
	}
	const largest = purposes.reduce((a, b) => (UPLOAD_RULES[a].maxBytes >= UPLOAD_RULES[b].maxBytes ? a : b))
	expect(uploadLimit(largest).maxBytes).toBe(FORM_LIMIT.maxBytes)
	expect(FORM_LIMIT.tooLarge).toBe(tooLargeMessage(largest))
	expect(FORM_LIMIT.maxBytes).toBeLessThan(MAX_REQUEST_BYTES)
})
