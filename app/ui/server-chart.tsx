/** Shows a chart rendered on the server (chart-html.server.tsx). */
export function ServerChart({ html }: { html: string }) {
	return <div dangerouslySetInnerHTML={{ __html: html }} />
}
