import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { preferredEncoding as appPreferredEncoding } from '../app/lib/accept-encoding.js'
import { createCompressedBodies, indexStaticFiles, preferredEncoding } from './static-files.mjs'

const dir = mkdtempSync(join(tmpdir(), 'static-files-'))
mkdirSync(join(dir, 'assets', 'nested'), { recursive: true })
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `単語${i}`))}\n`
writeFileSync(join(dir, 'assets', 'index-abc.js'), script)
writeFileSync(join(dir, 'assets', 'nested', 'a b.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
writeFileSync(join(dir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]))
writeFileSync(join(dir, 'README'), 'no extension')

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('indexStaticFiles', () => {
  const files = indexStaticFiles(dir)

  it('lists every file by its URL path, with its size and content type', () => {
    expect([...files.keys()].sort()).toEqual([
      '/README',
      '/assets/index-abc.js',
      '/assets/nested/a b.svg',
      '/favicon.ico',
    ])
    expect(files.get('/assets/index-abc.js')).toEqual({
      path: join(dir, 'assets', 'index-abc.js'),
      size: Buffer.byteLength(script),
      type: 'text/javascript; charset=utf-8',
    })
    expect(files.get('/assets/nested/a b.svg')?.type).toBe('image/svg+xml')
    expect(files.get('/README')?.type).toBe('application/octet-stream')
  })

  it('has no entry for folders, paths out of the folder or spellings of a path other than its own', () => {
    for (const path of [
      '/',
      '/assets',
      '/assets/',
      '/../package.json',
      '/assets/../favicon.ico',
      '/assets//index-abc.js',
      '/ASSETS/index-abc.js',
    ])
      expect(files.has(path), path).toBe(false)
  })

  it('answers an empty index for a missing folder', () => {
    expect(indexStaticFiles(join(dir, 'missing')).size).toBe(0)
  })
})

describe('createCompressedBodies', () => {
  const file = indexStaticFiles(dir).get('/assets/index-abc.js')!

  it('answers nothing on the first request, then the body it made, which decompresses to the file', async () => {
    const bodies = createCompressedBodies()
    expect(bodies.get(file, 'br')).toBeUndefined()
    const made = await bodies.prepare(file, 'br')
    expect(bodies.get(file, 'br')).toBe(made)
    expect(brotliDecompressSync(made!).toString()).toBe(script)
    expect(made!.length).toBeLessThan(Buffer.byteLength(script) / 3)

    expect(bodies.get(file, 'gzip')).toBeUndefined()
    expect(gunzipSync((await bodies.prepare(file, 'gzip'))!).toString()).toBe(script)
  })

  it('compresses a file once however many requests ask at the same time', async () => {
    const bodies = createCompressedBodies()
    const jobs = Array.from({ length: 20 }, () => bodies.prepare(file, 'br'))
    const made = await Promise.all(jobs)
    expect(new Set(made).size).toBe(1)
  })

  it('makes one body at a time, in the order asked, and every one of them', async () => {
    const bodies = createCompressedBodies()
    const other = { ...file, path: join(dir, 'assets', 'nested', 'a b.svg') }
    const order: string[] = []
    const jobs = [
      bodies.prepare(file, 'br').then(() => order.push('script br')),
      bodies.prepare(other, 'gzip').then(() => order.push('svg gzip')),
      bodies.prepare(file, 'gzip').then(() => order.push('script gzip')),
    ]
    await Promise.all(jobs)
    expect(order).toEqual(['script br', 'svg gzip', 'script gzip'])
  })

  it('answers nothing for a file that cannot be read, says so, and tries again on a later request', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const bodies = createCompressedBodies()
    const gone = { path: join(dir, 'assets', 'later.js'), size: 10, type: 'text/javascript; charset=utf-8' }
    try {
      expect(await bodies.prepare(gone, 'br')).toBeUndefined()
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`could not compress ${gone.path} (br)`))
    } finally {
      warn.mockRestore()
    }
    writeFileSync(gone.path, 'export {}\n')
    expect(brotliDecompressSync((await bodies.prepare(gone, 'br'))!).toString()).toBe('export {}\n')
  })
})

describe("preferredEncoding (the Node server's choice for files and pages it compresses)", () => {
  it("is the app's own rule, so a kept page and a file are answered in the same coding", () => {
    expect(preferredEncoding).toBe(appPreferredEncoding)
  })
})
