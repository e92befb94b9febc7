import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { ClassCard } from '~/components/cards/class-card'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { toClassCardView } from '~/lib/card-view'
import { formatDateJa } from '~/lib/format'
import { DEFAULT_AVATAR, fixedSizeSrcSet } from '~/lib/responsive-image'
import { removeFavoriteClass, unfollowTeacher } from './follow.functions'
import { followPageQuery } from './queries'

/** /follow: followed teachers and favorite classes, as two tabs. */
export function FollowPage() {
  const { followings, favorites } = useSuspenseQuery(followPageQuery()).data
  const [tab, setTab] = useState<'teachers' | 'classes'>('teachers')
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['follow'] }),
      queryClient.invalidateQueries({ queryKey: ['mypage'] }),
      queryClient.invalidateQueries({ queryKey: ['favorite-state'] }),
      // A teacher's page seen before (going back to it): its button and follower count.
      queryClient.invalidateQueries({ queryKey: ['follow-state'] }),
      queryClient.invalidateQueries({ queryKey: ['teacher-page'] }),
    ])

  const unfollow = useMutation({
    mutationFn: (teacherId: number) => unfollowTeacher({ data: teacherId }),
    onSuccess: async (result) => {
      if (!result.ok) return showErrorSnackbar(result.message || 'フォローを解除できませんでした')
      await refresh()
      showSnackbar({ message: 'フォローを解除しました' })
    },
    onError: (e) => showErrorSnackbar(`フォローを解除できませんでした ${(e as Error).message ?? ''}`),
  })
  const unfavorite = useMutation({
    mutationFn: (classWorkId: number) => removeFavoriteClass({ data: classWorkId }),
    onSuccess: async (result) => {
      if (!result.ok) return showErrorSnackbar(result.message || 'お気に入りから外せませんでした')
      await refresh()
      showSnackbar({ message: 'お気に入りから外しました' })
    },
    onError: (e) => showErrorSnackbar(`お気に入りから外せませんでした ${(e as Error).message ?? ''}`),
  })

  const tabClass = (on: boolean) =>
    `flex-1 border-b-4 px-4 py-3 text-center font-bold ${
      on ? 'border-purple-dark text-purple-dark' : 'border-transparent text-slate-700 hover:bg-light-grey'
    }`
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-black">フォロー・お気に入り</h1>
      <div
        role="tablist"
        aria-label="フォロー・お気に入りの表示"
        className="mt-6 flex border-b border-slate-200"
      >
        <button
          type="button"
          role="tab"
          id="tab-teachers"
          aria-selected={tab === 'teachers'}
          aria-controls="panel-follow"
          className={tabClass(tab === 'teachers')}
          onClick={() => setTab('teachers')}
          data-testid="tab-teachers"
        >
          フォロー中の先生（{followings.length}）
        </button>
        <button
          type="button"
          role="tab"
          id="tab-classes"
          aria-selected={tab === 'classes'}
          aria-controls="panel-follow"
          className={tabClass(tab === 'classes')}
          onClick={() => setTab('classes')}
          data-testid="tab-classes"
        >
          お気に入りのクラス（{favorites.length}）
        </button>
      </div>
      <div role="tabpanel" id="panel-follow" aria-labelledby={`tab-${tab}`} className="mt-4">
        {tab === 'teachers' ? (
          followings.length === 0 ? (
            <Empty text="フォロー中の先生はいません。" />
          ) : (
            <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="following-list">
              {followings.map((t) => (
                <li
                  key={t.id}
                  className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4"
                  data-testid="following-item"
                >
                  <img
                    src={t.avatar_url ?? DEFAULT_AVATAR}
                    {...fixedSizeSrcSet(t.avatar_url, 56)}
                    alt=""
                    width={56}
                    height={56}
                    loading="lazy"
                    className="h-14 w-14 shrink-0 rounded-full bg-base-light object-cover"
                  />
                  <div className="min-w-0 flex-1 break-words">
                    <Link
                      to="/teacher/detail/$id"
                      params={{ id: String(t.id) }}
                      className="font-bold hover:underline"
                      data-testid="following-name"
                    >
                      {t.nickname}
                    </Link>
                    {t.organization_name ? (
                      <p className="truncate text-xs text-slate-700">{t.organization_name}</p>
                    ) : null}
                    <p className="text-xs text-slate-700">{formatDateJa(t.followed_at)}からフォロー</p>
                  </div>
                  <button
                    type="button"
                    className="btn-outline shrink-0 px-3 py-1.5 text-sm"
                    disabled={unfollow.isPending}
                    onClick={() => unfollow.mutate(t.id)}
                    aria-label={`${t.nickname}のフォローを解除`}
                    data-testid="unfollow-button"
                  >
                    フォロー解除
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : favorites.length === 0 ? (
          <Empty text="お気に入りのクラスはありません。" />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="favorite-list">
            {favorites.map((f) => (
              <li key={f.class_work.id} className="flex flex-col gap-2" data-testid="favorite-item">
                <ClassCard card={toClassCardView(f.class_work)} />
                <button
                  type="button"
                  className="btn-ghost text-sm"
                  disabled={unfavorite.isPending}
                  onClick={() => unfavorite.mutate(f.class_work.id)}
                  aria-label={`${f.class_work.title}をお気に入りから外す`}
                  data-testid="unfavorite-button"
                >
                  お気に入りから外す
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  )
}

function Empty({ text }: { text: string }) {
  return (
    <div className="rounded-2xl bg-light-grey p-6 text-center text-sm text-slate-700">
      <p>{text}</p>
      <Link to="/class_search" className="btn-primary mt-4 inline-flex">
        クラスを探す
      </Link>
    </div>
  )
}
