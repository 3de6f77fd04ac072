import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import { OUTAGE_MESSAGE, type DatabaseOutage } from '#app/utils/database-outage.ts'
import { OutageScreen } from './outage-screen.tsx'

function render(outage: DatabaseOutage) {
	const Stub = createRoutesStub([{ path: '/medical-info', Component: () => <OutageScreen outage={outage} /> }])
	return renderToString(<Stub initialEntries={['/medical-info?tab=allergies']} />)
}

test('a page that could not load offers to try again', () => {
	const html = render({ databaseOutage: true, message: OUTAGE_MESSAGE, form: null })
	expect(html).toContain('Temporarily unavailable')
	expect(html).toContain('href="/medical-info?tab=allergies"')
	expect(html).not.toContain('<form')
})

test('a form sent without JavaScript comes back filled in, to be sent again as it was', () => {
	const html = render({
		databaseOutage: true,
		message: OUTAGE_MESSAGE,
		form: {
			action: '/medical-info?tab=allergies',
			enctype: 'multipart/form-data',
			files: ['document'],
			fields: [
				{ name: 'intent', value: 'add-allergy', kind: 'hidden' },
				{ name: 'allergen', value: 'Peanuts', kind: 'shown' },
				{ name: 'reaction', value: 'Hives\nand swelling', kind: 'shown' },
				{ name: 'addSticker', value: 'on', kind: 'shown' },
				{ name: 'password', value: '', kind: 'secret' },
			],
		},
	})
	expect(html).toMatch(/<form[^>]*action="\/medical-info\?tab=allergies"[^>]*encType="multipart\/form-data"[^>]*method="post"/)
	expect(html).toContain('<input type="hidden" name="intent" value="add-allergy"/>')
	expect(html).toMatch(/<label[^>]*>Allergen<\/label><input[^>]*name="allergen"[^>]*value="Peanuts"/)
	expect(html).toMatch(/<textarea[^>]*name="reaction"[^>]*>Hives\nand swelling<\/textarea>/)
	expect(html).toMatch(/<input[^>]*name="addSticker"[^>]*checked=""/)
	expect(html).toMatch(/<input[^>]*type="password"[^>]*required=""[^>]*name="password"\/>/)
	expect(html).toContain('Passwords and codes are not kept')
	expect(html).toContain('Attached files are not kept')
})
