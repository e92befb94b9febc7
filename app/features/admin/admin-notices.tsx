import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass } from '~/components/ui/form-parts'
import { CreateNoticeBody } from '~/contract/v1/admin'
import { fieldErrorsOf } from '~/lib/action-result'
import { formatDateJa, formatTimeJa } from '~/lib/format'
import { ADMIN_LIST_PAGE_SIZE } from '~/lib/page-sizes'
import { createAdminNotice, withdrawAdminNotice } from './admin.functions'
import { AdminPage, AdminPager } from './admin-page'
import { adminNoticesQuery } from './queries'

const when = (iso: string) => `${formatDateJa(iso)} ${formatTimeJa(iso)}`
const STATE_LABEL = { scheduled: '予約投稿', published: '公開中', withdrawn: '取り下げ済み' } as const

/** A datetime-local value (Tokyo) as an ISO instant; '' → undefined (now). */
function tokyoInstant(local: string): string | undefined {
  return local ? new Date(`${local}:00+09:00`).toISOString() : undefined
}

/**
 * /admin/notices: write, schedule and withdraw お知らせ (small Markdown: **太字**, リスト, [リンク](https://…)).
 * The notices written so far come 200 a page, so that an operator can still withdraw an old one.
 */
export function AdminNotices({ page }: { page: number }) {
  const notices = useSuspenseQuery(adminNoticesQuery(page)).data
  const full = notices.length >= ADMIN_LIST_PAGE_SIZE
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [errors, setErrors] = useState<Record<string, string>>({})
  // Every operator view: the notices, and the audit log that records each change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin'] })
  const create = useMutation({
    mutationFn: (input: { title: string; body: string; published_at?: string }) =>
      createAdminNotice({ data: input }),
    onSuccess: async (result, _input) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message)
      }
      setErrors({})
      await refresh()
      // The new notice is the newest: written from an older page, show the first page, where it is.
      if (page > 1) await navigate({ to: '/admin/notices', search: {} })
      showSnackbar({
        message: result.data.state === 'scheduled' ? 'お知らせを予約しました' : 'お知らせを公開しました',
      })
    },
    onError: () => showErrorSnackbar('保存できませんでした。時間をおいてもう一度お試しください'),
  })
  const withdraw = useMutation({
    mutationFn: (id: number) => withdrawAdminNotice({ data: id }),
    onSuccess: async (result) => {
      if (!result.ok) {
        // Withdrawn by another operator meanwhile: the list shows it as it is now.
        if (result.status === 409) await refresh()
        return showErrorSnackbar(result.message)
      }
      await refresh()
      showSnackbar({ message: 'お知らせを取り下げました' })
    },
    onError: () => showErrorSnackbar('取り下げられませんでした。時間をおいてもう一度お試しください'),
  })
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const target = e.currentTarget
    const form = new FormData(target)
    const input = {
      title: String(form.get('title') ?? ''),
      body: String(form.get('body') ?? ''),
      published_at: tokyoInstant(String(form.get('published_at') ?? '')),
    }
    // The contract's own rules, checked here first so that the fields say what is wrong.
    const checked = CreateNoticeBody.safeParse(input)
    if (!checked.success) return setErrors(fieldErrorsOf(checked.error.issues))
    create.mutate(input, { onSuccess: (result) => result.ok && target.reset() })
  }
  return (
    <AdminPage title="お知らせ">
      <form
        onSubmit={submit}
        className="mt-6 grid gap-4 rounded-2xl border border-slate-200 bg-white p-5"
        data-testid="notice-form"
        noValidate
      >
        <h2 className="font-bold">新しいお知らせ</h2>
        <Field id="notice-title" label="タイトル" error={errors.title}>
          {(a11y) => <input {...a11y} name="title" className={inputClass} maxLength={100} />}
        </Field>
        <Field
          id="notice-body"
          label="本文"
          hint="**太字**、- 箇条書き、[リンク](https://…) が使えます。HTMLと画像は使えません。"
          error={errors.body}
        >
          {(a11y) => <textarea {...a11y} name="body" rows={6} className={inputClass} maxLength={5000} />}
        </Field>
        <Field id="notice-published-at" label="公開日時（空欄ならすぐに公開）" error={errors.published_at}>
          {(a11y) => <input {...a11y} name="published_at" type="datetime-local" className={inputClass} />}
        </Field>
        <div>
          <button type="submit" className="btn-primary" disabled={create.isPending}>
            保存する
          </button>
        </div>
      </form>
      <h2 className="mt-8 font-bold">これまでのお知らせ</h2>
      {notices.length === 0 ? (
        <p className="mt-3" data-testid="notices-empty">
          {page > 1 ? 'このページにお知らせはありません。' : 'まだお知らせはありません。'}
        </p>
      ) : (
        <ul
          className="mt-3 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
          data-testid="admin-notices"
        >
          {notices.map((n) => (
            <li
              key={n.id}
              className="flex flex-wrap items-start justify-between gap-3 p-4"
              data-testid="admin-notice"
            >
              <div className="min-w-0">
                <p className="text-xs text-slate-600">
                  <span
                    className="mr-2 rounded-full bg-light-grey px-2 py-0.5 font-bold"
                    data-testid="notice-state"
                  >
                    {STATE_LABEL[n.state]}
                  </span>
                  <time dateTime={n.published_at}>{when(n.published_at)}</time>
                  {n.created_by ? `・${n.created_by}` : null}
                </p>
                <p className="mt-1 break-words font-bold">{n.title}</p>
              </div>
              {n.state !== 'withdrawn' ? (
                <button
                  type="button"
                  className="btn-outline"
                  disabled={withdraw.isPending}
                  onClick={() => {
                    if (window.confirm(`「${n.title}」を取り下げますか？`)) withdraw.mutate(n.id)
                  }}
                >
                  取り下げる
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <AdminPager
        page={page}
        hasNext={full}
        newer="新しいお知らせへ"
        older="古いお知らせへ"
        renderLink={(p, link) => <Link to="/admin/notices" search={{ page: p }} {...link} />}
      />
    </AdminPage>
  )
}
