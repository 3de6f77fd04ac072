/** A file made from medical data as it is now: downloaded, never kept by a browser or shared cache. */
export function cardDownload(body: Uint8Array, contentType: string, fileName: string) {
	return new Response(body as BodyInit, {
		headers: {
			'content-type': contentType,
			'content-disposition': `attachment; filename="${fileName}"`,
			'cache-control': 'private, no-store',
			'x-content-type-options': 'nosniff',
		},
	})
}
