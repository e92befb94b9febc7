import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useCallback, useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass, numberOrUndefined } from '~/components/ui/form-parts'
import { ClassWorkInput, type TeacherClassWork } from '~/contract/v1/class-management'
import { fieldErrorsOf } from '~/lib/action-result'
import { ClassImageField } from './class-image-field'
import { createClass, updateClass } from './class-management.functions'
import { classFormOptionsQuery } from './queries'

type Draft = {
  title: string
  description: string
  category_id: string
  class_style_id: string
  target_grade_ids: number[]
  price: string
  capacity: string
  duration_minutes: string
  lesson_count: string
  image_url: string | null
  is_published: boolean
}

const emptyDraft: Draft = {
  title: '',
  description: '',
  category_id: '',
  class_style_id: '',
  target_grade_ids: [],
  price: '0',
  capacity: '5',
  duration_minutes: '60',
  lesson_count: '1',
  image_url: null,
  is_published: false,
}

function draftOf(c: TeacherClassWork): Draft {
  return {
    title: c.title,
    description: c.description,
    category_id: String(c.category.id),
    class_style_id: String(c.class_style.id),
    target_grade_ids: c.target_grades.map((g) => g.id),
    price: String(c.price),
    capacity: String(c.capacity),
    duration_minutes: String(c.duration_minutes),
    lesson_count: String(c.lesson_count),
    image_url: c.image_url,
    is_published: c.is_published,
  }
}

/**
 * Create (no `initial`) or edit a class. A failed save keeps everything typed and stays on the page;
 * errors show per field in Japanese.
 */
export function ClassForm({ initial }: { initial?: TeacherClassWork }) {
  const options = useSuspenseQuery(classFormOptionsQuery()).data
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useServerFn(createClass)
  const update = useServerFn(updateClass)
  const uid = useId()
  const f = (k: string) => `${uid}-${k}`
  const [draft, setDraft] = useState<Draft>(initial ? draftOf(initial) : emptyDraft)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)
  const [uploading, setUploading] = useState(false)
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }))
  const onImageError = useCallback(
    (message: string | null) =>
      setErrors(({ image_url: _, ...rest }) => (message ? { ...rest, image_url: message } : rest)),
    [],
  )
  // Every schedule of a class has its number of lessons: fixed once the first schedule exists.
  const lessonCountLocked = (initial?.schedule_count ?? 0) > 0

  const body = () => ({
    title: draft.title,
    description: draft.description,
    category_id: numberOrUndefined(draft.category_id),
    class_style_id: numberOrUndefined(draft.class_style_id),
    target_grade_ids: draft.target_grade_ids,
    price: numberOrUndefined(draft.price),
    capacity: numberOrUndefined(draft.capacity),
    duration_minutes: numberOrUndefined(draft.duration_minutes),
    ...(lessonCountLocked ? {} : { lesson_count: numberOrUndefined(draft.lesson_count) }),
    image_url: draft.image_url,
    is_published: draft.is_published,
  })

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = ClassWorkInput.safeParse(body())
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = initial
        ? await update({
            data: { id: initial.id, patch: { ...parsed.data, expected_updated_at: initial.updated_at } },
          })
        : await create({ data: parsed.data })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message || '保存できませんでした')
        return
      }
      await queryClient.invalidateQueries({ queryKey: ['class-management'] })
      showSnackbar({ message: initial ? 'クラスを保存しました' : 'クラスを作成しました' })
      if (!initial) await navigate({ to: '/class_management/edit/$id', params: { id: String(result.data) } })
    } catch (error) {
      showErrorSnackbar(`保存できませんでした ${(error as Error).message ?? ''}`)
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5" data-testid="class-form">
      <Field id={f('title')} label="タイトル" error={errors.title} hint="60文字以内">
        {(a) => (
          <input
            {...a}
            className={inputClass}
            value={draft.title}
            onChange={(e) => set('title', e.target.value)}
          />
        )}
      </Field>
      <Field id={f('description')} label="説明" error={errors.description} hint="改行はそのまま表示されます">
        {(a) => (
          <textarea
            {...a}
            rows={6}
            className={inputClass}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
          />
        )}
      </Field>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <Field id={f('category')} label="カテゴリー" error={errors.category_id}>
          {(a) => (
            <select
              {...a}
              className={inputClass}
              value={draft.category_id}
              onChange={(e) => set('category_id', e.target.value)}
            >
              <option value="">選択してください</option>
              {options.categories.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id={f('style')} label="クラスの形式" error={errors.class_style_id}>
          {(a) => (
            <select
              {...a}
              className={inputClass}
              value={draft.class_style_id}
              onChange={(e) => set('class_style_id', e.target.value)}
            >
              <option value="">選択してください</option>
              {options.classStyles.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset aria-describedby={errors.target_grade_ids ? f('grades-error') : undefined}>
        <legend className="text-sm font-bold">対象学年（複数選択できます）</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {options.targetGrades.map((g) => {
            const checked = draft.target_grade_ids.includes(g.id)
            return (
              <label
                key={g.id}
                className={`flex cursor-pointer items-center gap-1 rounded-full border px-3 py-1 text-sm ${
                  checked ? 'border-purple-dark bg-base-light' : 'border-slate-300'
                }`}
              >
                <input
                  type="checkbox"
                  checked={checked}
                  onChange={() =>
                    set(
                      'target_grade_ids',
                      checked
                        ? draft.target_grade_ids.filter((x) => x !== g.id)
                        : [...draft.target_grade_ids, g.id],
                    )
                  }
                />
                {g.name}
              </label>
            )
          })}
        </div>
        {errors.target_grade_ids ? (
          <p id={f('grades-error')} className="mt-1 text-sm font-bold text-red-dark" role="alert">
            {errors.target_grade_ids}
          </p>
        ) : null}
      </fieldset>
      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-4">
        <Field
          id={f('price')}
          label="料金（円）"
          error={errors.price}
          hint={Number(draft.lesson_count) > 1 ? '0円で無料。コース全体の料金' : '0円で無料'}
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={0}
              className={inputClass}
              value={draft.price}
              onChange={(e) => set('price', e.target.value)}
            />
          )}
        </Field>
        <Field id={f('capacity')} label="定員（人）" error={errors.capacity}>
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={1}
              className={inputClass}
              value={draft.capacity}
              onChange={(e) => set('capacity', e.target.value)}
            />
          )}
        </Field>
        <Field id={f('duration')} label="時間（分）" error={errors.duration_minutes}>
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={10}
              className={inputClass}
              value={draft.duration_minutes}
              onChange={(e) => set('duration_minutes', e.target.value)}
            />
          )}
        </Field>
        <Field
          id={f('lessons')}
          label="回数"
          error={errors.lesson_count}
          hint={
            lessonCountLocked
              ? '日程を追加したクラスの回数は変更できません'
              : '1回で単発。2回以上で全N回のコース（まとめて予約）'
          }
        >
          {(a) => (
            <input
              {...a}
              type="number"
              inputMode="numeric"
              min={1}
              max={20}
              className={inputClass}
              value={draft.lesson_count}
              disabled={lessonCountLocked}
              onChange={(e) => set('lesson_count', e.target.value)}
              data-testid="lesson-count-input"
            />
          )}
        </Field>
      </div>
      <Field
        id={f('image')}
        label="画像"
        error={errors.image_url}
        hint="PNG・JPEG・WebP、5MBまで。カードには横8：縦5で表示されます"
      >
        {(a) => (
          <ClassImageField
            a11y={a}
            value={draft.image_url}
            onChange={(url) => set('image_url', url)}
            onError={onImageError}
            onBusy={setUploading}
          />
        )}
      </Field>
      <label className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <input
          type="checkbox"
          className="h-5 w-5"
          checked={draft.is_published}
          onChange={(e) => set('is_published', e.target.checked)}
          data-testid="publish-toggle"
        />
        <span>
          <span className="font-bold">公開する</span>
          <span className="block text-sm text-slate-700">
            公開すると検索やクラスページに表示され、予約を受け付けます。
          </span>
        </span>
      </label>
      <div>
        <button
          type="submit"
          className="btn-primary px-6 py-3"
          disabled={pending || uploading}
          data-testid="save-class"
        >
          {pending ? '保存中…' : initial ? '保存する' : '作成する'}
        </button>
      </div>
    </form>
  )
}
