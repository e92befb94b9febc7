import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import type { MasterItem } from '~/contract/v1/master'
import { MAX_LEARNERS, RegisterUserBody, type Role } from '~/contract/v1/users'
import { fieldErrorsOf } from '~/lib/action-result'
import { registerOptionsQuery } from './queries'
import { registerUser } from './register.functions'

type LearnerRow = { key: number; nickname: string; school_type_id: string; target_grade_id: string }

/** Row keys: unique however fast rows are added (two in one millisecond shared a Date.now() key). */
let nextLearnerKey = 1

const roles: { value: Role; label: string; note: string }[] = [
  { value: 'parent', label: '保護者として', note: 'お子さまの受講を申し込みます' },
  { value: 'learner', label: '学習者として', note: 'ご自身で受講します（中学生以上）' },
  { value: 'teacher', label: '先生として', note: 'クラスを開いて教えます' },
]

function Select(props: {
  id: string
  label: string
  value: string
  options: MasterItem[]
  error?: string
  onChange: (v: string) => void
}) {
  return (
    <div>
      <label htmlFor={props.id} className="text-sm font-bold">
        {props.label}
      </label>
      <select
        id={props.id}
        className={inputClass}
        value={props.value}
        aria-invalid={Boolean(props.error)}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">選択してください</option>
        {props.options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  )
}

const toId = (v: string) => (v ? Number(v) : undefined)

/** /register/input: the profile registration form (zod-validated here and again by the API). */
export function RegisterForm() {
  const options = useSuspenseQuery(registerOptionsQuery()).data
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const submit = useServerFn(registerUser)
  const uid = useId()
  const [nickname, setNickname] = useState('')
  const [name, setName] = useState('')
  const [nameKana, setNameKana] = useState('')
  const [role, setRole] = useState<Role>('parent')
  const [schoolType, setSchoolType] = useState('')
  const [grade, setGrade] = useState('')
  const [profession, setProfession] = useState('')
  const [learners, setLearners] = useState<LearnerRow[]>([])
  const [agreed, setAgreed] = useState(false)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)

  const body = () => ({
    nickname,
    name,
    name_kana: nameKana,
    role,
    ...(role === 'learner'
      ? { school_type_id: toId(schoolType), target_grade_id: toId(grade) }
      : { profession_id: toId(profession) }),
    ...(role === 'parent'
      ? {
          learners: learners.map((l) => ({
            nickname: l.nickname,
            school_type_id: toId(l.school_type_id),
            target_grade_id: toId(l.target_grade_id),
          })),
        }
      : {}),
    agreed_to_terms: agreed,
  })

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = RegisterUserBody.safeParse(body())
    if (!parsed.success) {
      const next = fieldErrorsOf(parsed.error.issues)
      setErrors(next)
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = await submit({ data: parsed.data })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message || '登録できませんでした')
        return
      }
      await queryClient.invalidateQueries({ queryKey: ['auth'] })
      showSnackbar({ message: '登録が完了しました' })
      await navigate({ to: '/register/thanks' })
    } catch (error) {
      showErrorSnackbar(`登録できませんでした ${(error as Error).message ?? ''}`)
    } finally {
      setPending(false)
    }
  }

  const f = (key: string) => `${uid}-${key}`
  const text = (key: string, label: string, value: string, set: (v: string) => void, hint?: string) => (
    <div>
      <label htmlFor={f(key)} className="text-sm font-bold">
        {label}
      </label>
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
      <input
        id={f(key)}
        className={inputClass}
        value={value}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `${f(key)}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      <FieldError id={`${f(key)}-error`} message={errors[key]} />
    </div>
  )

  return (
    <form className="flex flex-col gap-6" onSubmit={onSubmit} noValidate data-testid="register-form">
      {text('nickname', 'ニックネーム', nickname, setNickname, 'サイト上で表示される名前です（20文字以内）')}
      {text('name', 'お名前', name, setName)}
      {text('name_kana', 'ふりがな（カタカナ）', nameKana, setNameKana)}

      <fieldset>
        <legend className="text-sm font-bold">どのように利用しますか</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {roles.map((r) => (
            <label
              key={r.value}
              className={`cursor-pointer rounded-xl border-2 p-3 ${role === r.value ? 'border-purple-dark bg-purple-dark/5' : 'border-slate-200'}`}
            >
              <input
                type="radio"
                name="role"
                value={r.value}
                checked={role === r.value}
                onChange={() => setRole(r.value)}
                className="mr-2"
              />
              <span className="font-bold">{r.label}</span>
              <span className="mt-1 block text-xs text-slate-600">{r.note}</span>
            </label>
          ))}
        </div>
      </fieldset>

      {role === 'learner' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            id={f('school_type_id')}
            label="学校区分"
            value={schoolType}
            options={options.schoolTypes}
            error={errors.school_type_id}
            onChange={setSchoolType}
          />
          <Select
            id={f('target_grade_id')}
            label="学年"
            value={grade}
            options={options.targetGrades}
            error={errors.target_grade_id}
            onChange={setGrade}
          />
        </div>
      ) : (
        <Select
          id={f('profession_id')}
          label="職業"
          value={profession}
          options={options.professions}
          error={errors.profession_id}
          onChange={setProfession}
        />
      )}

      {role === 'parent' ? (
        <fieldset className="rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-sm font-bold">お子さまのプロフィール</legend>
          <p className="text-xs text-slate-600">
            受講するお子さまを登録します（あとからでも追加できます）。お子さまの本名や生年月日は登録しません。
          </p>
          <ul className="mt-3 flex flex-col gap-4">
            {learners.map((l, i) => (
              <li
                key={l.key}
                className="grid gap-3 rounded-lg bg-light-grey p-3 sm:grid-cols-3"
                data-testid="learner-row"
              >
                <div>
                  <label htmlFor={f(`learner-${l.key}-nickname`)} className="text-sm font-bold">
                    ニックネーム
                  </label>
                  <input
                    id={f(`learner-${l.key}-nickname`)}
                    className={inputClass}
                    value={l.nickname}
                    aria-invalid={Boolean(errors[`learners.${i}.nickname`])}
                    onChange={(e) =>
                      setLearners((rows) =>
                        rows.map((r) => (r.key === l.key ? { ...r, nickname: e.target.value } : r)),
                      )
                    }
                  />
                  <FieldError
                    id={f(`learner-${l.key}-nickname-error`)}
                    message={errors[`learners.${i}.nickname`]}
                  />
                </div>
                <Select
                  id={f(`learner-${l.key}-school`)}
                  label="学校区分"
                  value={l.school_type_id}
                  options={options.schoolTypes}
                  error={errors[`learners.${i}.school_type_id`]}
                  onChange={(v) =>
                    setLearners((rows) =>
                      rows.map((r) => (r.key === l.key ? { ...r, school_type_id: v } : r)),
                    )
                  }
                />
                <Select
                  id={f(`learner-${l.key}-grade`)}
                  label="学年"
                  value={l.target_grade_id}
                  options={options.targetGrades}
                  error={errors[`learners.${i}.target_grade_id`]}
                  onChange={(v) =>
                    setLearners((rows) =>
                      rows.map((r) => (r.key === l.key ? { ...r, target_grade_id: v } : r)),
                    )
                  }
                />
                <button
                  type="button"
                  className="btn-ghost justify-self-start text-red-dark sm:col-span-3"
                  onClick={() => setLearners((rows) => rows.filter((r) => r.key !== l.key))}
                >
                  このお子さまを削除
                </button>
              </li>
            ))}
          </ul>
          <FieldError id={f('learners-error')} message={errors.learners} />
          {learners.length < MAX_LEARNERS ? (
            <button
              type="button"
              className="btn-outline mt-3"
              onClick={() =>
                setLearners((rows) => [
                  ...rows,
                  { key: nextLearnerKey++, nickname: '', school_type_id: '', target_grade_id: '' },
                ])
              }
            >
              お子さまを追加
            </button>
          ) : (
            <p className="mt-3 text-xs text-slate-600" data-testid="learners-full">
              登録できるお子さまは{MAX_LEARNERS}人までです。
            </p>
          )}
        </fieldset>
      ) : null}

      <div>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={agreed}
            onChange={(e) => setAgreed(e.target.checked)}
            aria-invalid={Boolean(errors.agreed_to_terms)}
            className="mt-1"
          />
          <span>
            <Link to="/terms_of_service" target="_blank" className="text-purple-dark underline">
              利用規約
            </Link>
            と
            <Link to="/privacy_policy" target="_blank" className="text-purple-dark underline">
              プライバシーポリシー
            </Link>
            に同意します
          </span>
        </label>
        <FieldError id={f('agreed-error')} message={errors.agreed_to_terms} />
      </div>

      <button type="submit" className="btn-primary self-center px-10" disabled={pending}>
        {pending ? '登録しています…' : '登録する'}
      </button>
    </form>
  )
}
