/** Without payment settings (STRIPE_*), giving pages say so plainly and offer the one way that works. */
export function GivingUnavailable({ supportEmail }: { supportEmail: string }) {
	return (
		<div className="space-y-2">
			<h2 className="text-xl font-bold text-gray-900">Online giving is not set up on this server</h2>
			<p className="text-gray-800">
				Card payments are not connected here yet. To give, or to ask how, write to the foundation at{' '}
				<a href={`mailto:${supportEmail}`} className="font-semibold text-blue-800 underline">
					{supportEmail}
				</a>
				.
			</p>
		</div>
	)
}
