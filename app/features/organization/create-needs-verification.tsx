import { Link } from '@tanstack/react-router'

/** Creating an organisation is for approved teachers (PRODUCT.md): the way there instead of a form refused later. */
export function CreateNeedsVerification({ isTeacher }: { isTeacher: boolean }) {
  return (
    <div data-testid="org-create-needs-verification">
      <p className="mt-1 text-sm text-slate-700">
        団体を作成できるのは、本人確認が完了した先生です。
        {isTeacher ? '本人確認が完了すると作成できます。' : '先生として活動し、本人確認を申請してください。'}
      </p>
      <Link to="/profile/teacher" className="btn-outline mt-4 inline-flex px-4 py-2">
        {isTeacher ? '本人確認の状況' : '先生として活動する'}
      </Link>
    </div>
  )
}
