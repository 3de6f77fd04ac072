import { S3Client } from '@aws-sdk/client-s3'

export type S3Config = {
	bucket: string
	region: string
	endpoint?: string
	accessKeyId?: string
	secretAccessKey?: string
	forcePathStyle?: boolean
}

/**
 * The one way the app makes an S3 client (uploads, backups). A module of its own, reading no settings: the backup
 * scripts load it before the app's settings exist.
 */
export function createS3Client(config: S3Config) {
	return new S3Client({
		region: config.region,
		endpoint: config.endpoint,
		forcePathStyle: config.forcePathStyle,
		credentials:
			config.accessKeyId && config.secretAccessKey
				? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
				: undefined,
	})
}
