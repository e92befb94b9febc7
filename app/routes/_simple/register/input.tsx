import { createFileRoute } from '@tanstack/react-router'
import { registerOptionsQuery } from '~/features/register/queries'
import { RegisterForm } from '~/features/register/register-form'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_simple/register/input')({
  loader: ({ context }) => context.queryClient.ensureQueryData(registerOptionsQuery()),
  head: ({ match }) => pageHead(match, { title: 'プロフィール登録', noindex: true }),
  component: RegisterInputPage,
})

function RegisterInputPage() {
  return (
    <>
      <p className="text-sm font-bold text-purple-dark">STEP 1 / 2</p>
      <h1 className="mt-1 text-2xl font-black">プロフィール登録</h1>
      <p className="mt-3 text-sm text-slate-700">
        まなびのたねを利用するための基本情報を登録してください。登録・月額基本料は無料です。
      </p>
      <div className="mt-8">
        <RegisterForm />
      </div>
    </>
  )
}
