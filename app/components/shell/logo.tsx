import { appConfig } from '../../../app.config'

/** The まなびのたね mark: a sprouting seed, drawn inline so that it costs no request. */
/** `compact`: the mark alone below sm (the header on phones, where the search and account buttons need the room). */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className ?? ''}`}>
      <svg viewBox="0 0 40 40" width="32" height="32" aria-hidden="true">
        <circle cx="20" cy="20" r="19" fill="#e4f6fd" />
        <path d="M20 32c0-7 0-11 0-14" stroke="#4b2fa3" strokeWidth="3" strokeLinecap="round" fill="none" />
        <path d="M20 20c-7 0-10-4-10-9 6 0 10 3 10 9z" fill="#4ec2f0" />
        <path d="M20 17c0-6 4-9 10-9 0 6-4 9-10 9z" fill="#7b5cd6" />
        <ellipse cx="20" cy="32" rx="6" ry="2.5" fill="#ffd84d" />
      </svg>
      <span
        className={`text-lg font-black tracking-wide text-purple-dark ${compact ? 'max-sm:sr-only' : ''}`}
      >
        {appConfig.siteName}
      </span>
    </span>
  )
}
