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
