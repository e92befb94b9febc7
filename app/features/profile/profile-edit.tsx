import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useRef, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { Modal } from '~/components/ui/modal'
import type { MasterItem } from '~/contract/v1/master'
import { CreateLearnerBody, type Learner } from '~/contract/v1/users'
import { fieldErrorsOf } from '~/lib/action-result'
import { avatarFileProblem } from '~/lib/avatar-rules'
import {
  addLearner,
  clearAvatar,
  removeLearner,
  updateLearner,
  updateProfile,
  uploadAvatar,
} from './profile.functions'
import { ProfileEditInput } from './profile-schema'
import { profileQuery } from './queries'

function useRefreshProfile() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['profile'] }),
      queryClient.invalidateQueries({ queryKey: ['auth'] }),
      queryClient.invalidateQueries({ queryKey: ['mypage'] }),
      queryClient.invalidateQueries({ queryKey: ['reservation-options'] }),
    ])
}

/** /profile/edit_user: the member's basic information and learner profiles. */
export function ProfileEdit() {
  const { me, masters } = useSuspenseQuery(profileQuery()).data
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <p className="text-sm">
        <Link to="/profile" className="font-bold text-purple-dark underline">
          基本情報へ戻る
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">ユーザー情報の編集</h1>
      <AvatarField url={me.avatar_url} nickname={me.nickname} />
      <BasicForm
        initial={{
          nickname: me.nickname,
          name: me.name,
          name_kana: me.name_kana,
          introduction: me.introduction,
          profession_id: me.profession_id,
        }}
        professions={masters.professions}
        showProfession={me.role !== 'learner'}
        nameLocked={me.is_verified_teacher}
      />
      {me.role === 'parent' ? (
        <Learners learners={me.learners} schoolTypes={masters.schoolTypes} grades={masters.targetGrades} />
      ) : null}
    </div>
  )
}

function AvatarField({ url, nickname }: { url: string | null; nickname: string }) {
  const uid = useId()
  const refresh = useRefreshProfile()
  const [error, setError] = useState<string | undefined>()
  const onResult = async (
    result: Awaited<ReturnType<typeof uploadAvatar>>,
    message: string,
  ): Promise<void> => {
    if (!result.ok) {
      setError(result.message)
      return showErrorSnackbar(result.message || '画像を保存できませんでした')
    }
    setError(undefined)
    await refresh()
    showSnackbar({ message })
  }
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData()
      form.set('file', file)
      return uploadAvatar({ data: form })
    },
    onSuccess: (result) => onResult(result, 'プロフィール画像を変更しました'),
    onError: () => showErrorSnackbar('画像をアップロードできませんでした'),
  })
  const clear = useMutation({
    mutationFn: () => clearAvatar(),
    onSuccess: (result) => onResult(result, 'プロフィール画像を削除しました'),
    onError: () => showErrorSnackbar('画像を削除できませんでした'),
  })
  const busy = upload.isPending || clear.isPending
  return (
    <section
      aria-labelledby={`${uid}-heading`}
      className="mt-6 flex flex-wrap items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5"
    >
      {url ? (
        <img
          src={url}
          alt=""
          width={72}
          height={72}
          className="h-18 w-18 rounded-full object-cover"
          data-testid="avatar-preview"
        />
      ) : (
        <span className="flex h-18 w-18 items-center justify-center rounded-full bg-purple-dark text-2xl font-bold text-white">
          {nickname.slice(0, 1)}
        </span>
      )}
      <div className="min-w-0 flex-1">
        <h2 id={`${uid}-heading`} className="font-bold">
          プロフィール画像
        </h2>
        <p className="text-xs text-slate-700">PNG・JPEG・WebP、2MBまで</p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <label className={`btn-outline cursor-pointer px-3 py-1.5 text-sm ${busy ? 'opacity-60' : ''}`}>
            {upload.isPending ? 'アップロード中…' : '画像を選ぶ'}
            <input
              type="file"
              accept="image/png,image/jpeg,image/webp"
              className="sr-only"
              disabled={busy}
              aria-invalid={Boolean(error)}
              aria-describedby={error ? `${uid}-error` : undefined}
              data-testid="avatar-input"
              onChange={(e) => {
                const file = e.target.files?.[0]
                e.target.value = ''
                if (!file) return
                const problem = avatarFileProblem(file)
                if (problem) {
                  setError(problem)
                  return
                }
                upload.mutate(file)
              }}
            />
          </label>
          {url ? (
            <button
              type="button"
              className="btn-ghost px-3 py-1.5 text-sm"
              disabled={busy}
              onClick={() => clear.mutate()}
            >
              画像を削除
            </button>
          ) : null}
        </div>
        <FieldError id={`${uid}-error`} message={error} />
      </div>
    </section>
  )
}

const LOCKED_NAME_HINT = '本人確認済みのお名前です。変更が必要な場合はお問い合わせください'

function BasicForm(props: {
  initial: {
    nickname: string
    name: string
    name_kana: string
    introduction: string
    profession_id: number | null
  }
  professions: MasterItem[]
  showProfession: boolean
  /** A verified teacher's name is the one checked against their document (the API refuses a change). */
  nameLocked: boolean
}) {
  const uid = useId()
  const refresh = useRefreshProfile()
  const [v, setV] = useState({
    ...props.initial,
    profession_id: props.initial.profession_id ? String(props.initial.profession_id) : '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  // The profile as this page last read or saved it: only what the member changed since is sent, so that a save here
  // does not put back what another tab or device saved meanwhile.
  const saved = useRef<Record<string, unknown>>(props.initial)
  const save = useMutation({
    mutationFn: (data: Parameters<typeof updateProfile>[0]['data']) => updateProfile({ data }),
    onSuccess: async (result, sent) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message || '保存できませんでした')
      }
      saved.current = { ...saved.current, ...sent }
      await refresh()
      showSnackbar({ message: 'ユーザー情報を保存しました' })
    },
    onError: (e, sent) => {
      // No answer: the server may have saved them all the same, so they are sent again next time, whatever they say.
      const unknown = { ...saved.current }
      for (const k of Object.keys(sent)) delete unknown[k]
      saved.current = unknown
      showErrorSnackbar(`保存できませんでした ${(e as Error).message ?? ''}`)
    },
  })

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault()
    const parsed = ProfileEditInput.safeParse({
      nickname: v.nickname,
      name: v.name,
      name_kana: v.name_kana,
      introduction: v.introduction,
      ...(props.showProfession && v.profession_id ? { profession_id: Number(v.profession_id) } : {}),
    })
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      return
    }
    // Required as at registration (left out, the API would keep the old one while the page said 保存しました).
    if (props.showProfession && !v.profession_id) {
      setErrors({ profession_id: '職業を選択してください' })
      return
    }
    setErrors({})
    const changed = Object.fromEntries(
      Object.entries(parsed.data).filter(([k, value]) => value !== saved.current[k]),
    ) as typeof parsed.data
    if (Object.keys(changed).length === 0) return showSnackbar({ message: '変更はありません' })
    save.mutate(changed)
  }

  const f = (k: string) => `${uid}-${k}`
  const text = (k: 'nickname' | 'name' | 'name_kana', label: string, hint?: string, readOnly = false) => (
    <div>
      <label htmlFor={f(k)} className="text-sm font-bold">
        {label}
      </label>
      {hint ? <p className="text-xs text-slate-700">{hint}</p> : null}
      <input
        id={f(k)}
        className={inputClass}
        value={v[k]}
        aria-invalid={Boolean(errors[k])}
        aria-describedby={errors[k] ? `${f(k)}-error` : undefined}
        onChange={(e) => setV((s) => ({ ...s, [k]: e.target.value }))}
        readOnly={readOnly}
        data-testid={`edit-${k}`}
      />
      <FieldError id={`${f(k)}-error`} message={errors[k]} />
    </div>
  )

  return (
    <form
      className="mt-6 flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${uid}-heading`}
      data-testid="profile-form"
    >
      <h2 id={`${uid}-heading`} className="text-lg font-bold">
        基本情報
      </h2>
      {text('nickname', 'ニックネーム', 'サイト上で表示される名前です（20文字以内）')}
      {text('name', 'お名前', props.nameLocked ? LOCKED_NAME_HINT : undefined, props.nameLocked)}
      {text('name_kana', 'ふりがな（カタカナ）', undefined, props.nameLocked)}
      {props.showProfession ? (
        <div>
          <label htmlFor={f('profession_id')} className="text-sm font-bold">
            職業
          </label>
          <select
            id={f('profession_id')}
            className={inputClass}
            value={v.profession_id}
            onChange={(e) => setV((s) => ({ ...s, profession_id: e.target.value }))}
          >
            <option value="">選択してください</option>
            {props.professions.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <FieldError id={`${f('profession_id')}-error`} message={errors.profession_id} />
        </div>
      ) : null}
      <div>
        <label htmlFor={f('introduction')} className="text-sm font-bold">
          自己紹介
        </label>
        <textarea
          id={f('introduction')}
          rows={5}
          className={inputClass}
          value={v.introduction}
          aria-invalid={Boolean(errors.introduction)}
          onChange={(e) => setV((s) => ({ ...s, introduction: e.target.value }))}
        />
        <FieldError id={`${f('introduction')}-error`} message={errors.introduction} />
      </div>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={save.isPending} data-testid="profile-save">
          保存する
        </button>
      </div>
    </form>
  )
}

type LearnerDraft = { nickname: string; school_type_id: string; target_grade_id: string }
const emptyDraft: LearnerDraft = { nickname: '', school_type_id: '', target_grade_id: '' }

function Learners(props: { learners: Learner[]; schoolTypes: MasterItem[]; grades: MasterItem[] }) {
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [removing, setRemoving] = useState<Learner | null>(null)
  const refresh = useRefreshProfile()
  const remove = useMutation({
    mutationFn: (id: number) => removeLearner({ data: id }),
    onSuccess: async (result) => {
      setRemoving(null)
      if (!result.ok) return showErrorSnackbar(result.message || '削除できませんでした')
      await refresh()
      showSnackbar({ message: 'お子さまのプロフィールを削除しました' })
    },
    onError: (e) => {
      setRemoving(null)
      showErrorSnackbar(`削除できませんでした ${(e as Error).message ?? ''}`)
    },
  })
  const nameOf = (list: MasterItem[], id: number) => list.find((m) => m.id === id)?.name ?? ''
  return (
    <section aria-labelledby="learners-edit-heading" className="mt-8">
      <h2 id="learners-edit-heading" className="text-lg font-bold">
        お子さまのプロフィール
      </h2>
      <p className="text-xs text-slate-700">お子さまの本名や生年月日は登録しません。</p>
      <ul className="mt-3 flex flex-col gap-3" data-testid="learner-edit-list">
        {props.learners.map((l) =>
          editing === l.id ? (
            <li key={l.id}>
              <LearnerForm
                id={l.id}
                initial={{
                  nickname: l.nickname,
                  school_type_id: String(l.school_type_id),
                  target_grade_id: String(l.target_grade_id),
                }}
                schoolTypes={props.schoolTypes}
                grades={props.grades}
                onDone={() => setEditing(null)}
              />
            </li>
          ) : (
            <li
              key={l.id}
              className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 bg-white p-4"
              data-testid="learner-edit-item"
            >
              <span className="min-w-0 flex-1">
                <span className="block font-bold">{l.nickname}</span>
                <span className="text-sm text-slate-700">
                  {nameOf(props.schoolTypes, l.school_type_id)}・{nameOf(props.grades, l.target_grade_id)}
                </span>
              </span>
              <button
                type="button"
                className="btn-outline px-3 py-1.5 text-sm"
                onClick={() => setEditing(l.id)}
              >
                編集
              </button>
              <button
                type="button"
                className="btn-ghost px-3 py-1.5 text-sm text-red-dark"
                onClick={() => setRemoving(l)}
                aria-label={`${l.nickname}を削除`}
              >
                削除
              </button>
            </li>
          ),
        )}
      </ul>
      {editing === 'new' ? (
        <div className="mt-3">
          <LearnerForm
            initial={emptyDraft}
            schoolTypes={props.schoolTypes}
            grades={props.grades}
            onDone={() => setEditing(null)}
          />
        </div>
      ) : props.learners.length < 10 ? (
        <button
          type="button"
          className="btn-outline mt-3"
          onClick={() => setEditing('new')}
          data-testid="learner-add"
        >
          お子さまを追加する
        </button>
      ) : null}
      <Modal
        open={removing !== null}
        onOpenChange={(v) => {
          if (!v && !remove.isPending) setRemoving(null)
        }}
        title="お子さまのプロフィールを削除しますか？"
        message={
          removing
            ? `${removing.nickname}さんのプロフィールを削除します。これからの授業の予約やキャンセル待ちがある場合は削除できません（受講済みの授業の記録は残ります）。`
            : undefined
        }
        buttons={[
          { text: 'やめる', color: 'ghost', disable: remove.isPending, onClick: () => setRemoving(null) },
          {
            text: '削除する',
            color: 'danger',
            disable: remove.isPending,
            onClick: () => removing && remove.mutate(removing.id),
          },
        ]}
      />
    </section>
  )
}

function LearnerForm(props: {
  id?: number
  initial: LearnerDraft
  schoolTypes: MasterItem[]
  grades: MasterItem[]
  onDone: () => void
}) {
  const uid = useId()
  const refresh = useRefreshProfile()
  const [v, setV] = useState(props.initial)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const save = useMutation({
    mutationFn: (body: { nickname: string; school_type_id: number; target_grade_id: number }) =>
      props.id === undefined
        ? addLearner({ data: body })
        : updateLearner({ data: { ...body, id: props.id } }),
    onSuccess: async (result) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message || '保存できませんでした')
      }
      await refresh()
      showSnackbar({
        message: props.id === undefined ? 'お子さまを追加しました' : 'お子さまのプロフィールを保存しました',
      })
      props.onDone()
    },
    onError: (e) => showErrorSnackbar(`保存できませんでした ${(e as Error).message ?? ''}`),
  })
  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault()
    const parsed = CreateLearnerBody.safeParse({
      nickname: v.nickname,
      school_type_id: v.school_type_id ? Number(v.school_type_id) : undefined,
      target_grade_id: v.target_grade_id ? Number(v.target_grade_id) : undefined,
    })
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      return
    }
    setErrors({})
    save.mutate(parsed.data)
  }
  const f = (k: string) => `${uid}-${k}`
  const select = (k: 'school_type_id' | 'target_grade_id', label: string, options: MasterItem[]) => (
    <div>
      <label htmlFor={f(k)} className="text-sm font-bold">
        {label}
      </label>
      <select
        id={f(k)}
        className={inputClass}
        value={v[k]}
        aria-invalid={Boolean(errors[k])}
        aria-describedby={errors[k] ? `${f(k)}-error` : undefined}
        onChange={(e) => setV((s) => ({ ...s, [k]: e.target.value }))}
        data-testid={`learner-${k}`}
      >
        <option value="">選択してください</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <FieldError id={`${f(k)}-error`} message={errors[k]} />
    </div>
  )
  return (
    <form
      className="grid gap-3 rounded-xl bg-light-grey p-4 sm:grid-cols-3"
      onSubmit={onSubmit}
      noValidate
      data-testid="learner-form"
    >
      <div>
        <label htmlFor={f('nickname')} className="text-sm font-bold">
          ニックネーム
        </label>
        <input
          id={f('nickname')}
          className={inputClass}
          value={v.nickname}
          aria-invalid={Boolean(errors.nickname)}
          aria-describedby={errors.nickname ? `${f('nickname')}-error` : undefined}
          onChange={(e) => setV((s) => ({ ...s, nickname: e.target.value }))}
          data-testid="learner-nickname"
        />
        <FieldError id={`${f('nickname')}-error`} message={errors.nickname} />
      </div>
      {select('school_type_id', '学校区分', props.schoolTypes)}
      {select('target_grade_id', '学年', props.grades)}
      <div className="flex justify-end gap-2 sm:col-span-3">
        <button type="button" className="btn-ghost" onClick={props.onDone}>
          やめる
        </button>
        <button type="submit" className="btn-primary" disabled={save.isPending} data-testid="learner-save">
          {props.id === undefined ? '追加する' : '保存する'}
        </button>
      </div>
    </form>
  )
}
