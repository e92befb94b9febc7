/** Avatar uploads (/profile/edit_user): PNG, JPEG or WebP, at most 2 MB, recognised by their first bytes. */

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const

/** A stored avatar's path under /uploads/: a random name the server chose, never the uploader's. */
export const AVATAR_PATH = /^avatars\/[a-f0-9]{32}\.(png|jpg|webp)$/

/** Checks what the browser can know before uploading (the server checks the content again). */
export function avatarFileProblem(file: { type: string; size: number }): string | undefined {
  if (file.size === 0) return '画像ファイルを選択してください'
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type))
    return '画像は PNG・JPEG・WebP のいずれかにしてください'
  if (file.size > MAX_AVATAR_BYTES) return '画像は2MB以下にしてください'
  return undefined
}
