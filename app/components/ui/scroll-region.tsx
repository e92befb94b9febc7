import type { ReactNode } from 'react'

/** A horizontally scrollable area (wide tables on phones) that keyboard users can focus and scroll. */
export function ScrollRegion(props: { label: string; className?: string; children: ReactNode }) {
  return (
    <section
      className={`overflow-x-auto focus:outline-2 focus:outline-purple-dark ${props.className ?? ''}`}
      // A scrollable region must be focusable to scroll by keyboard (axe scrollable-region-focusable).
      // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
      tabIndex={0}
      aria-label={props.label}
    >
      {props.children}
    </section>
  )
}
