import { TabNav } from '#app/ui/tab-nav.tsx'

const tabs = [
	{ to: '/dashboard', label: 'Medical Info', end: true },
	{ to: '/dashboard/qr-codes', label: 'QR Codes', end: false },
	{ to: '/dashboard/profile', label: 'Profile', end: false },
]

/** The dashboard's tabs are real pages, so they work without JavaScript. */
export function DashboardTabs() {
	return (
		<TabNav
			label="Dashboard"
			tabs={tabs}
			className="border-b border-gray-300 bg-white"
			listClassName="mx-auto flex max-w-4xl overflow-x-auto px-2 sm:gap-1 sm:px-4"
			linkClassName="sm:px-4 sm:text-base"
		/>
	)
}
