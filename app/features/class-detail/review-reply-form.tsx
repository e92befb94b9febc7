import { useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useAction } from '~/components/shell/use-action'
import { FieldError, inputClass } from '~/components/ui/form-parts'

/** The class's teacher answers a review, once (reviews-section.tsx loads this only for them). */
export function ReplyForm({ reviewId, classWorkId }: { reviewId: number; classWorkId: number }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [text, setText] = useState('')
  const [error, setError] = useState<string | undefined>()
  const reply = useAction(
    async () => {
      const f = await import('./class-detail.functions')
      const result = await f.replyToReview({ data: { id: reviewId, body: { reply: text } } })
      if (!result.ok) {
        setError(result.fieldErrors.reply ?? result.message)
        return showErrorSnackbar(result.message)
      }
      setError(undefined)
      await queryClient.invalidateQueries({ queryKey: ['class-reviews', classWorkId] })
      showSnackbar({ message: '返信しました' })
    },
    () => showErrorSnackbar('返信できませんでした。時間をおいてもう一度お試しください'),
  )
  return (
    <form
      className="mt-3 flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        if (!text.trim()) return setError('返信を入力してください')
        reply.run()
      }}
      noValidate
    >
      <label htmlFor={`${uid}-reply`} className="text-sm font-bold">
        返信する（1回だけ・公開されます）
      </label>
      <textarea
        id={`${uid}-reply`}
        rows={3}
        maxLength={1000}
        className={inputClass}
        value={text}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${uid}-error` : undefined}
        onChange={(e) => setText(e.target.value)}
        data-testid="review-reply-input"
      />
      <FieldError id={`${uid}-error`} message={error} />
      <button
        type="submit"
        className="btn-primary self-end"
        disabled={reply.isPending}
        data-testid="review-reply-submit"
      >
        返信する
      </button>
    </form>
  )
}
