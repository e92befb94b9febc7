/** 「本人確認済み」: an operator checked this teacher's identity document (issue 15). */
export function VerifiedBadge({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-0.5 rounded-full bg-green-50 font-bold whitespace-nowrap text-green-800 ring-1 ring-green-200 ${
        size === 'xs' ? 'px-1.5 py-0 text-[0.65rem]' : 'px-2 py-0.5 text-xs'
      }`}
      data-testid="verified-badge"
    >
      <span aria-hidden="true">✓</span>本人確認済み
    </span>
  )
}
