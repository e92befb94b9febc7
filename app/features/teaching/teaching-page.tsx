import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { type FormEvent, useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { SubPage } from '~/components/ui/sub-page'
import { formatDateJa } from '~/lib/format'
import { teachingStateQuery } from './queries'
import { queryKeysAfterTeachingChange } from './query-keys'
import { submitTeacherVerification } from './teaching.functions'

/**
 * /profile/teacher — 先生として活動する (issue 15). A member submits their identity once; meanwhile they may write
 * drafts, and an operator's approval lets them publish (and shows 「本人確認済み」 on their pages).
 */
export function TeachingPage() {
  const state = useSuspenseQuery(teachingStateQuery()).data
  return (
    <SubPage
      back={{ to: '/profile', label: '基本情報へ戻る' }}
      title="先生として活動する"
      lead="まなびのたねでは、お子さまが安心して学べるよう、すべての先生に本人確認をお願いしています。"
    >
      {state.status === 'approved' ? (
        <section
          className="mt-6 rounded-2xl border border-green-200 bg-green-50 p-5"
          data-testid="teaching-approved"
        >
          <p className="font-bold">
            <VerifiedMark /> 本人確認が完了しています
          </p>
          <p className="mt-2 text-sm text-slate-700">
            クラスを公開できます。あなたのページとクラスには「本人確認済み」と表示されます。
          </p>
          <Link
            to="/class_management"
            search={{ tab: 'published' }}
            className="btn-primary mt-4 inline-flex px-4 py-2"
          >
            クラス管理へ
          </Link>
        </section>
      ) : state.status === 'pending' ? (
        <section
          className="mt-6 rounded-2xl border border-amber-200 bg-amber-50 p-5"
          data-testid="teaching-pending"
        >
          <p className="font-bold">本人確認を審査中です</p>
          <p className="mt-2 text-sm text-slate-700">
            {state.submitted_at ? `${formatDateJa(state.submitted_at)}に申請を受け付けました。` : ''}
            結果はメールでお知らせします。審査のあいだも、クラスを下書きとして作成できます（公開は審査の完了後です）。
          </p>
          <Link
            to="/class_management"
            search={{ tab: 'unpublished' }}
            className="btn-outline mt-4 inline-flex px-4 py-2"
          >
            クラスの下書きを作る
          </Link>
        </section>
      ) : (
        <>
          {state.status === 'rejected' ? (
            <section
              className="mt-6 rounded-2xl border border-red-200 bg-red-50 p-5"
              data-testid="teaching-rejected"
              role="status"
            >
              <p className="font-bold">前回の申請では本人確認を完了できませんでした</p>
              {state.reason ? <p className="mt-2 whitespace-pre-line text-sm">理由：{state.reason}</p> : null}
              <p className="mt-2 text-sm text-slate-700">内容を確認のうえ、もう一度申請してください。</p>
            </section>
          ) : null}
          <VerificationForm />
        </>
      )}
    </SubPage>
  )
}

export function VerifiedMark() {
  return (
    <span aria-hidden="true" className="text-green-700">
      ✓
    </span>
  )
}

const TEXT = {
  legal_name: { label: '本名（戸籍上の氏名）', hint: '本人確認書類と同じ表記で入力してください' },
  legal_name_kana: { label: '本名のふりがな', hint: 'カタカナかひらがなで入力してください' },
} as const

function VerificationForm() {
  const uid = useId()
  const queryClient = useQueryClient()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const submit = useMutation({
    mutationFn: (form: FormData) => submitTeacherVerification({ data: form }),
    onSuccess: async (result) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message)
      }
      setErrors({})
      await Promise.all(
        queryKeysAfterTeachingChange.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      )
      showSnackbar({ message: '本人確認の申請を受け付けました' })
    },
    onError: () => showErrorSnackbar('申請を送信できませんでした。時間をおいてもう一度お試しください'),
  })
  const f = (k: string) => `${uid}-${k}`
  const described = (k: string) => (errors[k] ? `${f(k)}-error` : undefined)
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    submit.mutate(new FormData(e.currentTarget))
  }
  return (
    <form
      className="mt-6 flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5"
      onSubmit={onSubmit}
      noValidate
      encType="multipart/form-data"
      aria-labelledby={`${uid}-heading`}
      data-testid="verification-form"
    >
      <h2 id={`${uid}-heading`} className="text-lg font-bold">
        本人確認の申請
      </h2>
      <p className="text-sm text-slate-700">
        提出いただいた本名・生年月日・画像は運営だけが確認し、公開されることはありません。画像は審査の30日後に削除します。18歳以上の方が対象です。
      </p>
      {(['legal_name', 'legal_name_kana'] as const).map((k) => (
        <div key={k}>
          <label htmlFor={f(k)} className="text-sm font-bold">
            {TEXT[k].label}
          </label>
          <p className="text-xs text-slate-700">{TEXT[k].hint}</p>
          <input
            id={f(k)}
            name={k}
            className={inputClass}
            autoComplete={k === 'legal_name' ? 'name' : 'off'}
            aria-invalid={Boolean(errors[k])}
            aria-describedby={described(k)}
            data-testid={`verification-${k}`}
          />
          <FieldError id={`${f(k)}-error`} message={errors[k]} />
        </div>
      ))}
      <div>
        <label htmlFor={f('birth_date')} className="text-sm font-bold">
          生年月日
        </label>
        <input
          id={f('birth_date')}
          name="birth_date"
          type="date"
          className={inputClass}
          autoComplete="bday"
          aria-invalid={Boolean(errors.birth_date)}
          aria-describedby={described('birth_date')}
          data-testid="verification-birth_date"
        />
        <FieldError id={`${f('birth_date')}-error`} message={errors.birth_date} />
      </div>
      <ImageField
        id={f('face')}
        name="face"
        label="顔写真"
        hint="正面を向いた、顔がはっきり分かる写真（PNG・JPEG・WebP、5MBまで）"
        error={errors.face}
      />
      <ImageField
        id={f('document')}
        name="document"
        label="本人確認書類の画像"
        hint="運転免許証・マイナンバーカード（表面のみ）・パスポートなど、氏名・生年月日・顔写真が分かる面"
        error={errors.document}
      />
      <div>
        <label htmlFor={f('career')} className="text-sm font-bold">
          経歴
        </label>
        <p className="text-xs text-slate-700">指導経験や資格など（10〜1000文字）。審査の参考にします</p>
        <textarea
          id={f('career')}
          name="career"
          rows={5}
          className={inputClass}
          aria-invalid={Boolean(errors.career)}
          aria-describedby={described('career')}
          data-testid="verification-career"
        />
        <FieldError id={`${f('career')}-error`} message={errors.career} />
      </div>
      <button
        type="submit"
        className="btn-primary self-start px-6 py-2"
        disabled={submit.isPending}
        data-testid="verification-submit"
      >
        {submit.isPending ? '送信中…' : '申請する'}
      </button>
    </form>
  )
}

function ImageField(props: { id: string; name: string; label: string; hint: string; error?: string }) {
  const [preview, setPreview] = useState<string | undefined>()
  return (
    <div>
      <label htmlFor={props.id} className="text-sm font-bold">
        {props.label}
      </label>
      <p id={`${props.id}-hint`} className="text-xs text-slate-700">
        {props.hint}
      </p>
      <input
        id={props.id}
        name={props.name}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="mt-1 block w-full text-sm"
        aria-invalid={Boolean(props.error)}
        aria-describedby={`${props.id}-hint${props.error ? ` ${props.id}-error` : ''}`}
        data-testid={`verification-${props.name}`}
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (preview) URL.revokeObjectURL(preview)
          setPreview(file ? URL.createObjectURL(file) : undefined)
        }}
      />
      {preview ? (
        <img
          src={preview}
          alt=""
          className="mt-2 h-32 w-auto rounded-lg border border-slate-200 object-contain"
        />
      ) : null}
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  )
}
