import '@tanstack/react-start/server-only'
import { readFile, unlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { type Db, getDb as defaultGetDb } from '~/db/client'
import { uploads } from '~/db/schema'
import { contentTypeOf } from '~/lib/image-type'
import { getConfig } from './config'
import { getStorageConfig, type S3StorageConfig } from './storage-config.server'

/**
 * Where uploaded images live, shared by every instance: the `uploads` table by default, S3-compatible storage
 * when S3_BUCKET is set. Never one instance's disk. Paths are the part of the URL after /uploads/
 * (`classes/<32 hex>.webp`); callers check them before they get here.
 */
export interface UploadStore {
  put(path: string, contentType: string, bytes: Uint8Array): Promise<void>
  /** Undefined when nothing is stored under that path; throws when the storage cannot be reached. */
  get(path: string): Promise<StoredUpload | undefined>
  /** Removing what is not there is not an error. */
  delete(path: string): Promise<void>
}

export interface StoredUpload {
  contentType: string
  bytes: Uint8Array
}

/** Uploads as rows of the `uploads` table (bytea). */
export function createDbUploadStore(getDb: () => Promise<Db> = defaultGetDb): UploadStore {
  return {
    async put(path, contentType, bytes) {
      await (await getDb()).insert(uploads).values({ path, contentType, bytes })
    },
    async get(path) {
      const [row] = await (await getDb())
        .select({ contentType: uploads.contentType, bytes: uploads.bytes })
        .from(uploads)
        .where(eq(uploads.path, path))
      // postgres.js gives a Buffer, PGlite a Uint8Array: hand out plain bytes either way.
      return row ? { contentType: row.contentType, bytes: new Uint8Array(row.bytes) } : undefined
    },
    async delete(path) {
      await (await getDb()).delete(uploads).where(eq(uploads.path, path))
    },
  }
}

/** Uploads as objects in an S3 bucket, keyed by their path. The SDK is loaded only when S3 is configured. */
export function createS3UploadStore(config: S3StorageConfig): UploadStore {
  type S3 = typeof import('@aws-sdk/client-s3')
  let loaded: Promise<{ sdk: S3; client: InstanceType<S3['S3Client']> }> | undefined
  const s3 = () => {
    loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        maxAttempts: 3,
      }),
    }))
    return loaded
  }
  return {
    async put(path, contentType, bytes) {
      const { sdk, client } = await s3()
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: config.bucket,
          Key: path,
          Body: bytes,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      )
    },
    async get(path) {
      const { sdk, client } = await s3()
      try {
        const out = await client.send(new sdk.GetObjectCommand({ Bucket: config.bucket, Key: path }))
        if (!out.Body) return undefined
        return {
          contentType: out.ContentType ?? 'application/octet-stream',
          bytes: await out.Body.transformToByteArray(),
        }
      } catch (err) {
        if (err instanceof sdk.NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined
        throw err
      }
    },
    async delete(path) {
      const { sdk, client } = await s3()
      await client.send(new sdk.DeleteObjectCommand({ Bucket: config.bucket, Key: path }))
    },
  }
}

/**
 * Older versions wrote uploads to `${DATA_DIR}/uploads/<path>`. A path missing from the store is looked up
 * there once and copied into the store, so old installs and their demo data keep their images and the copy
 * then serves every instance. Deleting removes both. (A lazy copy needs no start-up step and no coordination
 * between instances starting together; a path is only ever copied when someone asks for it.)
 */
export function withLegacyDisk(store: UploadStore, legacyRoot: string): UploadStore {
  const root = resolve(legacyRoot)
  const legacyFile = (path: string) => {
    const file = resolve(join(root, path))
    return file.startsWith(`${root}/`) ? file : undefined
  }
  return {
    put: (path, contentType, bytes) => store.put(path, contentType, bytes),
    async get(path) {
      const stored = await store.get(path)
      if (stored) return stored
      const file = legacyFile(path)
      if (!file) return undefined
      let bytes: Uint8Array
      try {
        bytes = new Uint8Array(await readFile(file))
      } catch {
        return undefined
      }
      const found = { contentType: contentTypeOf(path) ?? 'application/octet-stream', bytes }
      // Best effort: another instance may be copying the same file right now (then its row wins).
      await store.put(path, found.contentType, bytes).catch(() => {})
      return found
    },
    async delete(path) {
      // The old disk copy first: a read between the two would otherwise copy it back into the store.
      const file = legacyFile(path)
      if (file) await unlink(file).catch(() => {})
      await store.delete(path)
    },
  }
}

let current: UploadStore | undefined

/** The app's store, chosen from S3_* on first use (S3 when S3_BUCKET is set), with the old disk folder behind it. */
export function getUploadStore(): UploadStore {
  current ??= (() => {
    const storage = getStorageConfig()
    const store = storage.kind === 's3' ? createS3UploadStore(storage) : createDbUploadStore()
    return withLegacyDisk(store, join(getConfig().dataDir, 'uploads'))
  })()
  return current
}

/**
 * Records who uploaded the file just stored at `path` (class images 0035, avatars 0038). Unrecorded, nothing could
 * ever delete it: if the record fails, the file goes and the error is thrown (the upload fails as a whole).
 */
export async function recordOrDelete(
  path: string,
  record: () => Promise<void>,
  store: UploadStore = getUploadStore(),
): Promise<void> {
  try {
    await record()
  } catch (error) {
    await store.delete(path).catch(() => {})
    throw error
  }
}
