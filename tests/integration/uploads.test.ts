/**
 * Uploaded images in the shared store, never on one instance's disk: the `uploads` table (PGlite by default,
 * PostgreSQL with TEST_DATABASE_URL) and S3-compatible storage (a local s3rver), each seen by two "instances".
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import { sql } from 'drizzle-orm'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../app/db/client'
import { saveAvatar } from '../../app/server/avatar-upload.server'
import {
  createDbUploadStore,
  createS3UploadStore,
  type UploadStore,
  withLegacyDisk,
} from '../../app/server/upload-store.server'
import { saveClassImage, uploadResponse } from '../../app/server/uploads.server'
import { databaseUrlFor, openTestDatabase, type TestDatabase } from './support/test-db'

async function pngFile(name = 'photo.png', width = 300, height = 200) {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#f0a04e' } })
    .png()
    .toBuffer()
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' })
}

const pathOf = (url: string) => url.replace(/^\/uploads\//, '')

/** What two instances of the app do with one store: one saves, the other serves. */
function sharedStoreBehaviour(stores: () => { a: UploadStore; b: UploadStore }) {
  it('a class image saved on one instance is served by the other: WebP, immutable cache, exact bytes', async () => {
    const { a, b } = stores()
    const saved = await saveClassImage(await pngFile(), a)
    if (!saved.ok) throw new Error(saved.message)
    expect(saved.url).toMatch(/^\/uploads\/classes\/[a-f0-9]{32}\.webp$/)
    const res = await uploadResponse(pathOf(saved.url), b)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const body = new Uint8Array(await res.arrayBuffer())
    expect(await sharp(body).metadata()).toMatchObject({ format: 'webp', width: 300, height: 200 })
    const direct = await b.get(pathOf(saved.url))
    expect(Buffer.from(direct!.bytes).equals(Buffer.from(body))).toBe(true)
  })

  it('smaller widths are made from the original on first request, kept in the store, and served by any instance', async () => {
    const { a, b } = stores()
    const saved = await saveClassImage(await pngFile('wide.png', 1200, 750), a)
    if (!saved.ok) throw new Error(saved.message)
    const variant = pathOf(saved.url).replace('.webp', '-w640.webp')
    expect(await a.get(variant)).toBeUndefined()
    const first = await uploadResponse(variant, b)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/webp')
    expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = new Uint8Array(await first.arrayBuffer())
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 640, height: 400 })
    // Kept for the next request, on every instance.
    const kept = await a.get(variant)
    expect(Buffer.from(kept!.bytes).equals(Buffer.from(bytes))).toBe(true)
    expect((await uploadResponse(variant, a)).status).toBe(200)
    // Only the widths pages ask for, and only of something stored.
    expect((await uploadResponse(variant.replace('-w640', '-w641'), b)).status).toBe(404)
    expect((await uploadResponse(`classes/${'0'.repeat(32)}-w640.webp`, b)).status).toBe(404)
    expect(await b.get(`classes/${'0'.repeat(32)}-w640.webp`)).toBeUndefined()
  })

  it('unknown and malformed names are 404; nothing is read outside the store', async () => {
    const { b } = stores()
    for (const path of [
      `classes/${'0'.repeat(32)}.webp`,
      '../../package.json',
      'classes/../avatars/x.webp',
      'other/abc.webp',
      `classes/${'a'.repeat(32)}.svg`,
      '',
    ]) {
      expect((await uploadResponse(path, b)).status, path).toBe(404)
    }
  })

  it('refused uploads store nothing', async () => {
    const { a } = stores()
    const notImage = new File([new TextEncoder().encode('<svg onload=alert(1)>')], 'x.png', {
      type: 'image/png',
    })
    expect(await saveClassImage(notImage, a)).toMatchObject({ ok: false })
    expect(await saveClassImage(new File([], 'empty.png'), a)).toMatchObject({ ok: false })
  })

  it('an avatar saved on one instance is served by the other, 512 px at most, with its smaller widths', async () => {
    const { a, b } = stores()
    const saved = await saveAvatar(await pngFile('me.png', 1000, 1000), a)
    if (!saved.ok) throw new Error(saved.message)
    expect(saved.url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.webp$/)
    const res = await uploadResponse(pathOf(saved.url), b)
    expect((await sharp(new Uint8Array(await res.arrayBuffer())).metadata()).width).toBe(512)
    const small = pathOf(saved.url).replace('.webp', '-w96.webp')
    expect((await uploadResponse(small, a)).status).toBe(200)
    // Its release deletes both, from the database store (tests/integration/avatar-images.test.ts).
  })
}

describe('database store', () => {
  let database: TestDatabase
  let second: Database | undefined
  let a: UploadStore
  let b: UploadStore
  beforeAll(async () => {
    database = await openTestDatabase()
    a = createDbUploadStore(async () => database.db)
    const url = process.env.TEST_DATABASE_URL
    if (url) {
      // A second instance: its own connections to the same PostgreSQL database.
      const rows = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
        name: string
      }[]
      second = await openDatabase({ databaseUrl: databaseUrlFor(url, rows[0]!.name), migrate: false })
      const other = second
      b = createDbUploadStore(async () => other.db)
    } else {
      // The embedded database has one process; a second store on it is what a second caller sees.
      b = createDbUploadStore(async () => database.db)
    }
  })
  afterAll(async () => {
    await second?.close()
    await database?.close()
  })

  sharedStoreBehaviour(() => ({ a, b }))

  it('bytes round-trip exactly (every byte value) and a path is stored once', async () => {
    const bytes = new Uint8Array(256 * 4).map((_, i) => i % 256)
    const path = `classes/${randomBytes(16).toString('hex')}.webp`
    await a.put(path, 'image/webp', bytes)
    const got = await b.get(path)
    expect(got?.contentType).toBe('image/webp')
    expect(Array.from(got!.bytes)).toEqual(Array.from(bytes))
    await expect(a.put(path, 'image/webp', new Uint8Array([1]))).rejects.toThrow()
    await b.delete(path)
    expect(await a.get(path)).toBeUndefined()
  })

  it('the database away: 503 with Retry-After, not 404', async () => {
    const broken = createDbUploadStore(async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    })
    const res = await uploadResponse(`classes/${'b'.repeat(32)}.webp`, broken)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeTruthy()
    // A smaller width too: no width is made, and the page's srcset falls back on a retry.
    expect((await uploadResponse(`classes/${'b'.repeat(32)}-w640.webp`, broken)).status).toBe(503)
  })

  describe('images written to disk by older versions', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'manabi-legacy-uploads-'))
    })
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    it('are served from the old folder once, copied into the store, and then served from the store alone', async () => {
      const path = `classes/${randomBytes(16).toString('hex')}.webp`
      const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
        .webp()
        .toBuffer()
      await mkdir(join(dir, 'classes'), { recursive: true })
      await writeFile(join(dir, path), webp)
      // Instance A still has the old disk; instance B never had it.
      const onOldDisk = withLegacyDisk(a, dir)
      expect((await uploadResponse(path, b)).status).toBe(404)
      const res = await uploadResponse(path, onOldDisk)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/webp')
      expect(Buffer.from(await res.arrayBuffer()).equals(webp)).toBe(true)
      const copied = await b.get(path)
      expect(copied && Buffer.from(copied.bytes).equals(webp)).toBe(true)
      // Deleting removes both copies.
      await onOldDisk.delete(path)
      expect(existsSync(join(dir, path))).toBe(false)
      expect(await b.get(path)).toBeUndefined()
    })

    it('a read while a delete runs does not copy the deleted file back into the store', async () => {
      const path = `classes/${randomBytes(16).toString('hex')}.webp`
      await mkdir(join(dir, 'classes'), { recursive: true })
      await writeFile(join(dir, path), 'old bytes')
      let onOldDisk: UploadStore
      // Another request reads the path between the two halves of the delete.
      const racing: UploadStore = {
        ...a,
        async delete(p) {
          await onOldDisk.get(p)
          await a.delete(p)
        },
      }
      onOldDisk = withLegacyDisk(racing, dir)
      await onOldDisk.delete(path)
      expect(existsSync(join(dir, path))).toBe(false)
      expect(await b.get(path)).toBeUndefined()
    })

    it('never reads outside the old folder', async () => {
      await writeFile(join(dir, '..', 'manabi-outside.webp'), 'secret')
      const onOldDisk = withLegacyDisk(a, dir)
      expect(await onOldDisk.get('../manabi-outside.webp')).toBeUndefined()
      await rm(join(dir, '..', 'manabi-outside.webp'), { force: true })
    })
  })
})

describe('S3 store (s3rver)', () => {
  let server: S3rver
  let dir: string
  let a: UploadStore
  let b: UploadStore
  const bucket = 'manabi-uploads-test'
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'manabi-s3rver-'))
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir })
    const { port } = await server.run()
    const config = {
      kind: 's3' as const,
      bucket,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    }
    const admin = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: true,
      credentials: config.credentials,
    })
    await admin.send(new CreateBucketCommand({ Bucket: bucket }))
    admin.destroy()
    // Two instances: two clients, one bucket.
    a = createS3UploadStore(config)
    b = createS3UploadStore(config)
  })
  afterAll(async () => {
    await server?.close()
    await rm(dir, { recursive: true, force: true })
  })

  sharedStoreBehaviour(() => ({ a, b }))

  it('an object keeps its bytes and content type; a missing key is undefined', async () => {
    const path = `avatars/${randomBytes(16).toString('hex')}.webp`
    const bytes = new Uint8Array(1000).map((_, i) => (i * 7) % 256)
    await a.put(path, 'image/webp', bytes)
    const got = await b.get(path)
    expect(got?.contentType).toBe('image/webp')
    expect(Array.from(got!.bytes)).toEqual(Array.from(bytes))
    await b.delete(path)
    expect(await a.get(path)).toBeUndefined()
  })

  it('the storage away: 503, not 404', async () => {
    const away = createS3UploadStore({
      kind: 's3',
      bucket,
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    })
    expect((await uploadResponse(`classes/${'c'.repeat(32)}.webp`, away)).status).toBe(503)
    expect((await uploadResponse(`classes/${'c'.repeat(32)}-w320.webp`, away)).status).toBe(503)
  })
})
