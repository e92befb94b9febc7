import { useServerFn } from '@tanstack/react-start'
import { Suspense, useEffect, useRef, useState } from 'react'
import type { Area } from 'react-easy-crop'
import { lazyPart } from '~/components/shell/lazy-part'
import { showErrorSnackbar } from '~/components/shell/ui-store'
import { CLASS_IMAGE_ASPECT, MAX_IMAGE_BYTES } from '~/lib/image-type'
import { uploadClassImage } from './class-management.functions'

const ImageCropper = lazyPart(() => import('./image-cropper'))

export const CLASS_IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp'

/** Why a chosen file cannot be a class image, or null. The server checks again by the file's bytes. */
export function classImageProblem(file: { type: string; size: number }): string | null {
  if (!CLASS_IMAGE_ACCEPT.split(',').includes(file.type))
    return '画像は PNG・JPEG・WebP のいずれかにしてください'
  if (file.size > MAX_IMAGE_BYTES) return '画像は5MB以下にしてください'
  if (file.size === 0) return '画像ファイルを選択してください'
  return null
}

/**
 * The class image: drop a picture on the field or choose one, crop it to the card's 8:5, and see it as cards
 * show it. The picture is uploaded only once the crop is confirmed; the server crops, re-encodes and stores it.
 */
export function ClassImageField(props: {
  a11y: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }
  value: string | null
  onChange: (url: string | null) => void
  onError: (message: string | null) => void
  onBusy: (busy: boolean) => void
}) {
  const upload = useServerFn(uploadClassImage)
  const [dragging, setDragging] = useState(false)
  const [picked, setPicked] = useState<{ file: File; url: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const area = useRef<Area | null>(null)
  const { onBusy } = props

  useEffect(
    () => () => {
      if (picked) URL.revokeObjectURL(picked.url)
    },
    [picked],
  )
  useEffect(() => onBusy(busy || picked !== null), [busy, picked, onBusy])

  function choose(file: File | undefined) {
    if (!file) return
    const problem = classImageProblem(file)
    props.onError(problem)
    if (problem) return
    area.current = null
    setPicked({ file, url: URL.createObjectURL(file) })
  }

  async function confirm() {
    if (!picked) return
    setBusy(true)
    try {
      const form = new FormData()
      form.set('file', picked.file)
      if (area.current) form.set('crop', JSON.stringify(area.current))
      const result = await upload({ data: form })
      // Refused (not really an image, too large…): back to the field, with the reason under it.
      setPicked(null)
      if (!result.ok) return props.onError(result.message)
      props.onError(null)
      props.onChange(result.url)
    } catch {
      showErrorSnackbar('画像をアップロードできませんでした')
    } finally {
      setBusy(false)
    }
  }

  if (picked)
    return (
      <div className="mt-2 rounded-xl border border-slate-200 bg-white p-3" data-testid="image-crop-step">
        <p className="text-sm">カードに表示される範囲（横8：縦5）を選んでください。</p>
        <div className="mt-2">
          <Suspense fallback={<p className="text-sm">読み込み中…</p>}>
            <ImageCropper
              src={picked.url}
              aspect={CLASS_IMAGE_ASPECT}
              onAreaChange={(a) => {
                area.current = a
              }}
            />
          </Suspense>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <button
            type="button"
            className="btn-primary px-4 py-2"
            disabled={busy}
            onClick={confirm}
            data-testid="image-crop-confirm"
          >
            {busy ? 'アップロード中…' : 'この範囲で使う'}
          </button>
          <button
            type="button"
            className="btn-ghost px-4 py-2"
            disabled={busy}
            onClick={() => setPicked(null)}
          >
            やめる
          </button>
        </div>
      </div>
    )

  return (
    <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-start">
      {props.value ? (
        <img
          src={props.value}
          alt="クラスの画像（カードでの見え方）"
          width={192}
          height={120}
          className="aspect-[8/5] w-48 shrink-0 rounded-lg bg-light-grey object-cover"
          data-testid="image-preview"
        />
      ) : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for dragged files; the file input inside is the way for keyboards and touch */}
      <div
        className={`flex min-w-0 flex-1 flex-col items-start gap-2 rounded-xl border-2 border-dashed p-4 text-sm ${
          dragging ? 'border-purple-dark bg-purple-dark/5' : 'border-slate-300 bg-white'
        }`}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          choose(e.dataTransfer.files[0])
        }}
        data-testid="image-drop"
      >
        <span>ここに画像をドラッグ＆ドロップ、または</span>
        <input
          {...props.a11y}
          type="file"
          accept={CLASS_IMAGE_ACCEPT}
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            choose(file)
          }}
          className="max-w-full text-sm"
        />
        {props.value ? (
          <button type="button" className="btn-ghost px-3 py-1 text-sm" onClick={() => props.onChange(null)}>
            画像を外す
          </button>
        ) : null}
      </div>
    </div>
  )
}
