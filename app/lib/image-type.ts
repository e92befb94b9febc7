import { z } from 'zod'

/** Image types accepted for class images, recognised by their first bytes (the declared type is not trusted). */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024
export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const
export type ImageExt = keyof typeof IMAGE_TYPES

export function sniffImageType(bytes: Uint8Array): ImageExt | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (starts([0xff, 0xd8, 0xff])) return 'jpg'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp'
  return undefined
}

/** The Content-Type of a stored upload by its extension. */
export function contentTypeOf(name: string): string | undefined {
  const ext = name.slice(name.lastIndexOf('.') + 1) as ImageExt
  return IMAGE_TYPES[ext]
}

/** Class images are shown on cards at 8:5 (class-card.tsx); the crop step produces that shape. */
export const CLASS_IMAGE_ASPECT = 8 / 5

/**
 * The part of an uploaded image to keep, in percent of its upright width and height (react-easy-crop's
 * `croppedArea`), sent as JSON with the upload; the server does the cropping. A little slack for rounding at the
 * edges; nothing empty, nothing outside the picture.
 */
export const ImageCrop = z
  .object({
    x: z.number().min(-0.5).max(99),
    y: z.number().min(-0.5).max(99),
    width: z.number().min(1).max(100.5),
    height: z.number().min(1).max(100.5),
  })
  .strict()
  .refine((c) => c.x + c.width <= 100.5 && c.y + c.height <= 100.5, '切り抜く範囲が画像の外に出ています')
export type ImageCrop = z.infer<typeof ImageCrop>

/** The crop field of an upload: undefined when absent, else the rectangle or an error message. */
export function parseImageCrop(raw: unknown): { ok: true; crop?: ImageCrop } | { ok: false } {
  if (raw === null || raw === undefined || raw === '') return { ok: true }
  if (typeof raw !== 'string' || raw.length > 200) return { ok: false }
  try {
    const parsed = ImageCrop.safeParse(JSON.parse(raw))
    return parsed.success ? { ok: true, crop: parsed.data } : { ok: false }
  } catch {
    return { ok: false }
  }
}
