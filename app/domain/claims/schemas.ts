export const PIN_REJECTED = 'Invalid or already claimed PIN'
export const PIN_FORMAT = 'Please enter an 8-character PIN'
