import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Footer } from '../shell/footer'
import { DemoBadge } from '../shell/header'
import { Logo } from '../shell/logo'
import { useSite } from '../shell/use-site'

/** The simple layout (registration and error pages): logo only, no navigation. */
export function SimpleLayout({ children }: { children: ReactNode }) {
  const site = useSite()
  return (
    <div className="flex min-h-dvh flex-col" data-layout="simple">
      <header id="site-header" className="border-b border-slate-200 bg-white" data-testid="simple-header">
        <div className="mx-auto flex h-16 max-w-3xl items-center gap-3 px-4">
          <Link to="/" aria-label="まなびのたね トップページ">
            <Logo />
          </Link>
          {site.demoIdentity ? <DemoBadge phones /> : null}
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer compact />
    </div>
  )
}
