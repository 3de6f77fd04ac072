export const CONSENT_TEXTS = [
	{
		consentType: 'hipaa',
		title: 'HIPAA-Style Medical Information Consent',
		body: [
			'I choose to store medical information about myself, and about family members I am authorised to act for, with Hit Me Helpers.',
			'I understand that Hit Me Helpers is a nonprofit service, not a healthcare provider, and is not a covered entity under HIPAA, the US health-privacy law. It nevertheless handles my information with safeguards modelled on HIPAA: it is encrypted in transit, stored privately, and never sold or shared with third parties.',
			'I authorise Hit Me Helpers to show the information I mark as scannable to anyone who scans one of my active QR codes, so that first responders can treat me or my family member in an emergency.',
			'I can change or delete this information, turn scanning off for a profile, deactivate a QR code, or delete my account at any time from my dashboard.',
		].join('\n\n'),
	},
	{
		consentType: 'terms',
		title: 'Terms of Service Agreement',
		body: [
			'Hit Me Helpers is provided free of charge by the Hit Me Helpers Foundation and is funded by donations.',
			'I will keep the information in my profiles accurate and up to date, and I will only add family members whose information I am entitled to share.',
			'I will keep my password secret and tell the foundation at once if I believe my account has been used by someone else.',
			'The foundation may suspend accounts that are used to store false information or to harm others. The service is provided as is, without any warranty that it will always be available.',
		].join('\n\n'),
	},
	{
		consentType: 'emergency_disclaimer',
		title: 'Emergency Medical Disclaimer',
		body: [
			'Hit Me Helpers does not provide medical advice, diagnosis or treatment, and does not contact emergency services for me.',
			'In an emergency, call 911 or your local emergency number.',
			'First responders may rely on the information shown when my QR code is scanned. They may also not see it, not be able to scan it, or decide on treatment for other reasons. A DNR or POLST shown here is not a substitute for the signed original document, which I keep where I have said it is kept.',
		].join('\n\n'),
	},
] as const
