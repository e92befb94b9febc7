/**
 * The address of a class's share image (og:image). It carries a version made from the picture it shows, because
 * the image is cached for a day (and served stale for a week) by browsers, CDNs and link previews: a new picture
 * must be a new address, as it is a new file in the store (app/server/og-image.server.ts).
 */
export function classShareImageUrl(classWorkId: number, imageUrl: string | null): string {
  return `/og/class/${classWorkId}.png?v=${fnv1a(imageUrl ?? '')}`
}

/** FNV-1a, 32 bits, as 8 hex digits: short and the same in the browser and on the server. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, '0')
}
