import { offlineFieldName, type Unreachable } from '#app/utils/network-failure.ts'

/**
 * What this form's people are told if it cannot reach the server (with JavaScript; without it the browser says so).
 * Give `intent` when the form's buttons send different intents.
 */
export function OfflineMessage({ intent, title, description }: Unreachable & { intent?: string }) {
	return <input type="hidden" name={offlineFieldName(intent)} value={JSON.stringify({ title, description })} />
}
