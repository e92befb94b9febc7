import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { inputClass } from '~/components/ui/form-parts'
import { OrganizationInput } from '~/contract/v1/org-management'
import { fieldErrorsOf } from '~/lib/action-result'
import { organizationKindLabels } from '~/lib/organization-kind'
import { CreateNeedsVerification } from './create-needs-verification'
import { createOrganization, updateOrganization } from './organization.functions'
import { organizationEditQuery, refreshOrganizationViews } from './queries'

type Kind = 'corporation' | 'group'

/** /profile/edit_organization: create the caller's organisation, or edit the one they own. */
export function OrganizationForm() {
  const { org, canCreate, isTeacher } = useSuspenseQuery(organizationEditQuery()).data
  const uid = useId()
  const f = (k: string) => `${uid}-${k}`
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const create = useServerFn(createOrganization)
  const update = useServerFn(updateOrganization)
  const [kind, setKind] = useState<Kind | ''>(org?.kind ?? '')
  const [name, setName] = useState(org?.name ?? '')
  const [representative, setRepresentative] = useState(org?.representative ?? '')
  const [url, setUrl] = useState(org?.url ?? '')
  const [description, setDescription] = useState(org?.description ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)

  if (org && org.my_role !== 'owner') {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        <h1 className="text-2xl font-black">団体情報</h1>
        <p className="mt-4 text-slate-700">
          {org.name}のメンバーとして参加しています。団体の情報は代表者（オーナー）が編集できます。
        </p>
        <Link to="/organization_management" className="btn-outline mt-6 inline-flex px-4 py-2">
          団体管理へ
        </Link>
      </div>
    )
  }

  if (!org && !canCreate) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        <h1 className="text-2xl font-black">団体の作成</h1>
        <CreateNeedsVerification isTeacher={isTeacher} />
      </div>
    )
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = OrganizationInput.safeParse({
      kind: kind || undefined,
      name,
      representative,
      url: url.trim() === '' ? null : url.trim(),
      description,
    })
    if (!parsed.success) {
      const next = fieldErrorsOf(parsed.error.issues)
      if (next.kind) next.kind = '種別を選択してください'
      setErrors(next)
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = org
        ? await update({ data: { ...parsed.data, expected_updated_at: org.updated_at } })
        : await create({ data: parsed.data })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message || '保存できませんでした')
        return
      }
      await refreshOrganizationViews(queryClient)
      showSnackbar({ message: org ? '団体情報を保存しました' : '団体を作成しました' })
      await navigate({ to: '/organization_management', search: {} })
    } catch (error) {
      showErrorSnackbar(`保存できませんでした ${(error as Error).message ?? ''}`)
    } finally {
      setPending(false)
    }
  }

  const err = (k: string) =>
    errors[k] ? (
      <p id={f(`${k}-error`)} className="mt-1 text-sm font-bold text-red-dark" role="alert">
        {errors[k]}
      </p>
    ) : null
  const a11y = (k: string) => ({
    id: f(k),
    'aria-invalid': Boolean(errors[k]),
    'aria-describedby': errors[k] ? f(`${k}-error`) : undefined,
  })

  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-black">{org ? '団体情報の編集' : '団体の作成'}</h1>
      <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-5" data-testid="organization-form">
        <fieldset aria-describedby={errors.kind ? f('kind-error') : undefined}>
          <legend className="text-sm font-bold">種別</legend>
          <div className="mt-2 flex gap-4">
            {(['corporation', 'group'] as const).map((k) => (
              <label key={k} className="flex items-center gap-2">
                <input type="radio" name={f('kind')} checked={kind === k} onChange={() => setKind(k)} />
                {organizationKindLabels[k]}
              </label>
            ))}
          </div>
          {err('kind')}
        </fieldset>
        <div>
          <label htmlFor={f('name')} className="text-sm font-bold">
            団体名
          </label>
          <input
            {...a11y('name')}
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          {err('name')}
        </div>
        <div>
          <label htmlFor={f('representative')} className="text-sm font-bold">
            代表者名
          </label>
          <input
            {...a11y('representative')}
            className={inputClass}
            value={representative}
            onChange={(e) => setRepresentative(e.target.value)}
          />
          {err('representative')}
        </div>
        <div>
          <label htmlFor={f('url')} className="text-sm font-bold">
            ウェブサイト（任意、https://）
          </label>
          <input
            {...a11y('url')}
            type="url"
            inputMode="url"
            className={inputClass}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          {err('url')}
        </div>
        <div>
          <label htmlFor={f('description')} className="text-sm font-bold">
            紹介文（任意）
          </label>
          <textarea
            {...a11y('description')}
            rows={5}
            className={inputClass}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          {err('description')}
        </div>
        <div>
          <button
            type="submit"
            className="btn-primary px-6 py-3"
            disabled={pending}
            data-testid="save-organization"
          >
            {org ? '保存する' : '作成する'}
          </button>
        </div>
      </form>
    </div>
  )
}
