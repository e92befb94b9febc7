import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect } from 'react'
import { Ruby } from '~/components/ui/ruby'
import { formatDateJa } from '~/lib/format'
import { markInformationRead } from './information.functions'
import { informationItemQuery } from './queries'

/** /information/detail/{id}: one notice; opening it marks it read and the header count drops at once. */
export function InformationDetail({ infoKey }: { infoKey: string }) {
  const item = useSuspenseQuery(informationItemQuery(infoKey)).data
  const queryClient = useQueryClient()
  const markRead = useMutation({
    mutationFn: () => markInformationRead({ data: infoKey }),
    onSuccess: async (result) => {
      if (!result.ok) return
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['auth'] }),
        queryClient.invalidateQueries({ queryKey: ['information'] }),
        queryClient.invalidateQueries({ queryKey: ['mypage'] }),
      ])
    },
  })
  const unread = item ? !item.is_read : false
  const { mutate } = markRead
  useEffect(() => {
    if (unread) mutate()
  }, [unread, mutate])

  if (!item) return null
  return (
    <article className="mx-auto max-w-3xl px-4 py-8" data-testid="information-detail">
      <p className="text-sm">
        <Link to="/information" className="font-bold text-purple-dark underline">
          お知らせ一覧へ戻る
        </Link>
      </p>
      <p className="mt-4 flex flex-wrap items-center gap-2 text-xs text-slate-700">
        <span className="rounded-full bg-base-light px-2 py-0.5 font-bold text-base-ink">
          {item.kind === 'notice' ? '運営から' : 'クラスから'}
        </span>
        <time dateTime={item.at}>{formatDateJa(item.at)}</time>
      </p>
      <h1 className="mt-2 text-2xl font-black">
        <Ruby text={item.title} />
      </h1>
      {item.class_work ? (
        <p className="mt-2 text-sm">
          <Link
            to="/class_search/detail/$id"
            params={{ id: String(item.class_work.id) }}
            className="text-purple-dark underline"
          >
            <Ruby text={item.class_work.title} />
          </Link>
        </p>
      ) : null}
      {item.body_html ? (
        <div
          className="prose-ja mt-6 rounded-2xl border border-slate-200 bg-white p-5 leading-relaxed"
          // Sanitised on the server (app/api/services/markdown.ts when written, and again when read).
          dangerouslySetInnerHTML={{ __html: item.body_html }}
        />
      ) : (
        <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-5 leading-relaxed whitespace-pre-line">
          <Ruby text={item.body} />
        </div>
      )}
    </article>
  )
}
