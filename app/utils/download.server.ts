/** A file to save: the browser downloads it and stays on the page, with or without JavaScript. */
export function fileResponse(file: { fileName: string; contentType: string; body: Uint8Array }) {
	return new Response(Buffer.from(file.body), {
		headers: {
			'content-type': file.contentType,
			'content-disposition': `attachment; filename="${file.fileName}"`,
			'content-length': String(file.body.byteLength),
			'cache-control': 'private, no-store',
		},
	})
}
