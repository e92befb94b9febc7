import sprite from './icons.svg?no-inline'

/**
 * The inline icons: Material-style paths kept as <symbol>s in one SVG sprite (./icons.svg), a hashed, long-cached
 * file. The paths never enter the JavaScript bundles, and the header's icons cost no first-load script (0008).
 */
export type IconName =
  | 'check-circle'
  | 'alert'
  | 'close'
  | 'menu'
  | 'search'
  | 'home'
  | 'info'
  | 'arrow-up'
  | 'reload'
  | 'open-in-new'
  | 'heart'
  | 'heart-outline'
  | 'person-add'
  | 'person-check'
  | 'article'
  | 'chevron-left'
  | 'chevron-right'
  | 'tune'
  | 'event'
  | 'group'
  | 'receipt'

export function Icon({ name, className, title }: { name: IconName; className?: string; title?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="currentColor"
      className={className ?? 'h-6 w-6'}
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
    >
      {title ? <title>{title}</title> : null}
      <use href={`${sprite}#${name}`} />
    </svg>
  )
}
