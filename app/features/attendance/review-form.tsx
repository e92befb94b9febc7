import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import type { Purchase } from '~/contract/v1/purchases'
import { reviewLesson } from './attendance.functions'

const LABELS = ['', 'いまひとつ', 'もう少し', 'ふつう', 'よかった', 'とてもよかった'] as const

/** 「レビューを書く」 under an attended lesson that ended: ★1–5 and a comment of 10–1000 characters. */
export function ReviewForm({ purchase }: { purchase: Purchase }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [rating, setRating] = useState(0)
  const [comment, setComment] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const send = useMutation({
    mutationFn: () => reviewLesson({ data: { purchase_id: purchase.id, body: { rating, comment } } }),
    onSuccess: async (result) => {
      if (!result.ok) {
        setErrors(Object.keys(result.fieldErrors).length ? result.fieldErrors : { comment: result.message })
        return showErrorSnackbar(result.message)
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attendance'] }),
        queryClient.invalidateQueries({ queryKey: ['class-reviews', purchase.class_work.id] }),
        queryClient.invalidateQueries({ queryKey: ['class-detail', purchase.class_work.id] }),
      ])
      showSnackbar({ message: 'レビューを投稿しました' })
    },
    onError: () => showErrorSnackbar('投稿できませんでした。時間をおいてもう一度お試しください'),
  })
  if (!open)
    return (
      <button type="button" className="btn-outline" onClick={() => setOpen(true)} data-testid="review-open">
        レビューを書く
      </button>
    )
  return (
    <form
      className="flex flex-col gap-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const next: Record<string, string> = {}
        if (rating < 1) next.rating = '評価を選んでください'
        if (comment.trim().length < 10) next.comment = 'コメントは10文字以上で入力してください'
        setErrors(next)
        if (Object.keys(next).length === 0) send.mutate()
      }}
      data-testid="review-form"
    >
      <fieldset aria-describedby={errors.rating ? `${uid}-rating-error` : undefined}>
        <legend className="text-sm font-bold">評価</legend>
        <div className="mt-1 flex flex-wrap gap-1">
          {[1, 2, 3, 4, 5].map((star) => (
            <label key={star} className="cursor-pointer">
              <input
                type="radio"
                name={`${uid}-rating`}
                value={star}
                checked={rating === star}
                onChange={() => setRating(star)}
                className="peer sr-only"
              />
              <span
                className={`block rounded-lg px-1 text-3xl leading-none peer-focus-visible:ring-3 peer-focus-visible:ring-purple-dark ${
                  star <= rating ? 'text-amber-500' : 'text-slate-300'
                }`}
                aria-hidden="true"
              >
                ★
              </span>
              <span className="sr-only">
                {star}（{LABELS[star]}）
              </span>
            </label>
          ))}
        </div>
        {rating > 0 ? <p className="text-sm text-slate-700">{LABELS[rating]}</p> : null}
        <FieldError id={`${uid}-rating-error`} message={errors.rating} />
      </fieldset>
      <div>
        <label htmlFor={`${uid}-comment`} className="text-sm font-bold">
          コメント（10〜1000文字・公開されます）
        </label>
        <p className="text-xs text-slate-600">お子さまのお名前や連絡先は書かないでください。</p>
        <textarea
          id={`${uid}-comment`}
          rows={4}
          maxLength={1000}
          className={inputClass}
          value={comment}
          aria-invalid={Boolean(errors.comment)}
          aria-describedby={errors.comment ? `${uid}-comment-error` : undefined}
          onChange={(e) => setComment(e.target.value)}
          data-testid="review-comment"
        />
        <FieldError id={`${uid}-comment-error`} message={errors.comment} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={send.isPending} data-testid="review-submit">
          投稿する
        </button>
        <button type="button" className="btn-ghost" onClick={() => setOpen(false)}>
          やめる
        </button>
      </div>
    </form>
  )
}
