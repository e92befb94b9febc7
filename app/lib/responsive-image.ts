/**
 * Responsive uploads (issue 18): an uploaded class image or avatar is stored once, as WebP at its largest size, and
 * served at a few smaller widths too (`<name>-w640.webp`), each made from the original on first request and kept
 * in the upload store (app/server/uploads.server.ts). Demo images are SVG: they scale, and get no srcset.
 */

/** What a class without its own picture shows. */
export const DEFAULT_CLASS_IMAGE = '/images/classes/default.svg'
/** Shown for a teacher or member without an avatar. */
export const DEFAULT_AVATAR = '/images/avatars/default.svg'

export type UploadDir = 'classes' | 'avatars'

/** The widths served below the original (1600 px classes, 512 px avatars), per folder. */
export const VARIANT_WIDTHS: Record<UploadDir, readonly number[]> = {
  classes: [320, 640, 960],
  avatars: [96, 192],
}
const ORIGINAL_WIDTH: Record<UploadDir, number> = { classes: 1600, avatars: 512 }

const UPLOAD_URL = /^\/uploads\/(classes|avatars)\/([a-f0-9]{32})\.webp$/
const VARIANT_PATH = /^(classes|avatars)\/([a-f0-9]{32})-w(\d{2,4})\.webp$/

/** `srcset` for an uploaded image; undefined for anything else (SVG drawings, outside URLs). */
export function srcSetOf(url: string | null | undefined): string | undefined {
  const m = url ? UPLOAD_URL.exec(url) : null
  if (!m) return undefined
  const dir = m[1] as UploadDir
  const base = `/uploads/${dir}/${m[2]}`
  return [
    ...VARIANT_WIDTHS[dir].map((w) => `${base}-w${w}.webp ${w}w`),
    `${url} ${ORIGINAL_WIDTH[dir]}w`,
  ].join(', ')
}

/** A variant's original and width, when `path` (under /uploads/) names an allowed one. */
export function parseVariant(path: string): { original: string; width: number } | undefined {
  const m = VARIANT_PATH.exec(path)
  if (!m) return undefined
  const dir = m[1] as UploadDir
  const width = Number(m[3])
  // The exact spelling only (`-w0640` is 640 too): a stored copy under another name would outlive the picture's
  // release, which deletes the names variantPathsOf gives.
  if (!VARIANT_WIDTHS[dir].includes(width) || String(width) !== m[3]) return undefined
  return { original: `${dir}/${m[2]}.webp`, width }
}

/** The variant paths of an original (`avatars/<name>.webp`): what to delete with it. */
export function variantPathsOf(path: string): string[] {
  const m = /^(classes|avatars)\/([a-f0-9]{32})\.webp$/.exec(path)
  if (!m) return []
  const dir = m[1] as UploadDir
  return VARIANT_WIDTHS[dir].map((w) => `${dir}/${m[2]}-w${w}.webp`)
}

/** `sizes` of the places images are shown (CSS widths at each breakpoint). */
export const IMAGE_SIZES = {
  /** A class card: one column on phones, two from 640 px, three from 1024 px in a 72rem page. */
  card: '(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw',
  /** The class page's picture: full width on phones, about half of a 72rem page from 768 px. */
  detail: '(min-width: 1152px) 600px, (min-width: 768px) 52vw, 100vw',
} as const

/** Props of an <img> for an image shown `px` CSS pixels wide (avatars). */
export function fixedSizeSrcSet(url: string | null | undefined, px: number) {
  const srcSet = srcSetOf(url)
  return srcSet ? { srcSet, sizes: `${px}px` } : {}
}

/** Props of an <img> shown at `sizes` (class pictures). */
export function responsiveSrcSet(url: string | null | undefined, sizes: string) {
  const srcSet = srcSetOf(url)
  return srcSet ? { srcSet, sizes } : {}
}
