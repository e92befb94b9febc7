/** 「本人確認済み」: an operator checked this teacher's identity document (issue 15). */
export function VerifiedBadge({ size = 'sm' }: { size?: 'xs' | 'sm' }) {
  return (
    <span
      className={size === 'xs' ? 'verified-badge verified-badge-xs' : 'verified-badge'}
      data-testid="verified-badge"
    >
      <span aria-hidden="true">✓</span>本人確認済み
    </span>
  )
}
