import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useServerClock } from '~/components/shell/use-server-clock'
import { Field, inputClass } from '~/components/ui/form-parts'
import { Modal } from '~/components/ui/modal'
import { AnnouncementInput } from '~/contract/v1/class-management'
import { fieldErrorsOf } from '~/lib/action-result'
import { ClassForm } from './class-form'
import { deleteClass, postAnnouncement } from './class-management.functions'
import { ClassRequestsPanel } from './class-requests-panel'
import { ownClassQuery } from './queries'
import { SchedulesPanel } from './schedules-panel'

const NOW_TICK_MS = 15_000

/** /class_management/edit/$id */
export function EditClassPage({ id }: { id: number }) {
  const { data: cls, dataUpdatedAt } = useSuspenseQuery(ownClassQuery(id))
  // Which schedules may still be edited (the API checks again), on the server's clock: kept current, so that a
  // lesson that starts while the page is open offers ミーティングURLを変更 (all a started lesson takes) rather than a
  // form it would refuse, and a device clock minutes off neither locks a lesson early nor offers a refused form.
  const now = useServerClock(cls?.now, dataUpdatedAt, NOW_TICK_MS)
  if (!cls) return null
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link
          to="/class_management"
          search={{ tab: cls.is_published ? 'published' : 'unpublished' }}
          className="underline"
        >
          クラス管理
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">クラスを編集</h1>
      {cls.organization ? (
        <p className="mt-1 text-sm text-slate-700">所属団体：{cls.organization.name}</p>
      ) : null}
      <div className="mt-6">
        <ClassForm initial={cls} />
      </div>
      <ClassRequestsPanel classWorkId={cls.id} />
      <SchedulesPanel cls={cls} now={now} />
      <AnnouncementForm classWorkId={cls.id} />
      <DeleteClass classWorkId={cls.id} hasReservations={!cls.deletable} />
    </div>
  )
}

function AnnouncementForm({ classWorkId }: { classWorkId: number }) {
  const uid = useId()
  const post = useServerFn(postAnnouncement)
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = AnnouncementInput.safeParse({ title, body })
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = await post({ data: { classWorkId, body: parsed.data } })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message)
        return
      }
      setTitle('')
      setBody('')
      showSnackbar({ message: `お知らせを送りました（${result.data}人）` })
    } catch {
      showErrorSnackbar('お知らせを送れませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <section aria-labelledby={`${uid}-heading`} className="mt-10">
      <h2 id={`${uid}-heading`} className="text-xl font-bold">
        受講者へのお知らせ
      </h2>
      <p className="mt-1 text-sm text-slate-700">このクラスを予約している方にお知らせを送ります。</p>
      <form
        onSubmit={onSubmit}
        noValidate
        className="mt-3 grid gap-4 rounded-2xl border border-slate-200 bg-white p-4"
      >
        <Field id={`${uid}-title`} label="件名" error={errors.title}>
          {(a) => (
            <input {...a} className={inputClass} value={title} onChange={(e) => setTitle(e.target.value)} />
          )}
        </Field>
        <Field id={`${uid}-body`} label="本文" error={errors.body}>
          {(a) => (
            <textarea
              {...a}
              rows={4}
              className={inputClass}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          )}
        </Field>
        <div>
          <button type="submit" className="btn-primary px-5 py-2" disabled={pending}>
            お知らせを送る
          </button>
        </div>
      </form>
    </section>
  )
}

function DeleteClass({ classWorkId, hasReservations }: { classWorkId: number; hasReservations: boolean }) {
  const [open, setOpen] = useState(false)
  const [pending, setPending] = useState(false)
  const remove = useServerFn(deleteClass)
  const navigate = useNavigate()
  const queryClient = useQueryClient()

  async function onDelete() {
    setPending(true)
    try {
      const result = await remove({ data: { id: classWorkId } })
      if (!result.ok) {
        setOpen(false)
        showErrorSnackbar(result.message)
        return
      }
      await queryClient.invalidateQueries({ queryKey: ['class-management'] })
      showSnackbar({ message: 'クラスを削除しました' })
      await navigate({ to: '/class_management', search: { tab: 'unpublished' } })
    } catch {
      showErrorSnackbar('削除できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <section className="mt-12 border-t border-slate-200 pt-6" aria-label="クラスの削除">
      {hasReservations ? (
        <p className="text-sm text-slate-700">
          予約のあるクラスは削除できません。募集をやめるときは非公開にしてください。
        </p>
      ) : (
        <button type="button" className="btn-ghost px-3 py-2 text-red-dark" onClick={() => setOpen(true)}>
          このクラスを削除する
        </button>
      )}
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="クラスを削除しますか？"
        message="削除したクラスは元に戻せません。"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: () => setOpen(false) },
          { text: '削除する', color: 'danger', disable: pending, onClick: onDelete },
        ]}
      />
    </section>
  )
}
