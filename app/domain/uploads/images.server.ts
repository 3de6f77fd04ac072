import sharp, { type Metadata } from 'sharp'
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from './file-type.ts'

// Every upload is decoded once; libvips' operation cache would only hold on to memory.
sharp.cache(false)

export type StoredImage = { bytes: Uint8Array; format: 'jpeg' | 'png' | 'webp'; mime: string }
/**
 * What re-encoding an upload gives: the stored image, or why the bytes are no image to keep (they do not decode as the
 * type they claim, or they claim more pixels than MAX_IMAGE_PIXELS). Plain data: it comes back from a renderer process.
 */
export type Reencoded = ({ image: 'reencoded' } & StoredImage) | { image: 'unreadable' } | { image: 'too-many-pixels' }

const FORMAT: Record<string, 'jpeg' | 'png' | 'gif' | 'webp'> = {
	'image/jpeg': 'jpeg',
	'image/png': 'png',
	'image/gif': 'gif',
	'image/webp': 'webp',
}

export const isImageMime = (mime: string) => Object.hasOwn(FORMAT, mime)

/**
 * Runs in a renderer process (render/pool.server.ts), one at a time: a decoded image can take a few hundred MB.
 *
 * Decodes an image and encodes it afresh, so only its pixels survive: anything appended or hidden in it (a script, a
 * second file), and all its metadata (EXIF with GPS, XMP, comments, text chunks, the ICC profile once the colours are
 * converted to sRGB) are left behind. The EXIF orientation is applied to the pixels; the longer side is capped at
 * MAX_IMAGE_SIDE. GIFs (and animated PNGs and WebPs) keep their first frame only, and a GIF becomes a PNG.
 */
export async function reencodeImage(bytes: Uint8Array, mime: string): Promise<Reencoded> {
	const expected = Object.hasOwn(FORMAT, mime) ? FORMAT[mime] : undefined
	let metadata: Metadata
	try {
		// Reads the header only, so a file claiming enormous dimensions costs nothing yet.
		metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
	} catch {
		return { image: 'unreadable' }
	}
	if (!expected || metadata.format !== expected) return { image: 'unreadable' }
	if (metadata.width * metadata.height > MAX_IMAGE_PIXELS) return { image: 'too-many-pixels' }
	// `failOn: 'error'`: a decoder warning (a few stray bytes, a slightly wrong colour profile) is common in real photos and
	// harmless here, since only the decoded pixels are kept; a truncated or broken image is still refused.
	const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', autoOrient: true })
	image.resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
	if (expected === 'jpeg') image.jpeg({ quality: 85 })
	else if (expected === 'webp') image.webp({ quality: 85 })
	// A palette image (every GIF, many PNGs) stays one, so it does not grow threefold as true colour.
	else image.png({ palette: metadata.isPalette })
	try {
		const data = await image.toBuffer()
		const format = expected === 'gif' ? 'png' : expected
		return { image: 'reencoded', bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), format, mime: `image/${format}` }
	} catch {
		return { image: 'unreadable' }
	}
}

export type SmallFormat = 'webp' | 'jpeg'
/** The longer side of the small copy of a profile picture: the responder page's 80 px square at twice the pixels, with room to crop. */
export const SMALL_PICTURE_SIDE = 200

/**
 * The small copies of a (re-encoded, stored) profile picture that the responder page and the wallet card use: at most
 * SMALL_PICTURE_SIDE px, a few KB, on white. WebP for browsers that take it, JPEG for the rest and for the card's PDF.
 * The picture is decoded and resized once for both.
 */
export async function smallPictures(bytes: Uint8Array): Promise<Record<SmallFormat, Uint8Array>> {
	const { data, info } = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
		.resize({ width: SMALL_PICTURE_SIDE, height: SMALL_PICTURE_SIDE, fit: 'inside', withoutEnlargement: true })
		.flatten({ background: '#ffffff' })
		.raw()
		.toBuffer({ resolveWithObject: true })
	const small = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
	const [webp, jpeg] = await Promise.all([
		small().webp({ quality: 75 }).toBuffer(),
		small().jpeg({ quality: 80, mozjpeg: true }).toBuffer(),
	])
	return { webp: new Uint8Array(webp), jpeg: new Uint8Array(jpeg) }
}
