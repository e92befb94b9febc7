import type { ReactNode } from 'react'
import { appConfig } from '../../../app.config'
import { BottomNav } from '../shell/bottom-nav'
import { Footer } from '../shell/footer'
import { Header } from '../shell/header'
import { useSite } from '../shell/use-site'

/** The magazine layout: the site header plus a magazine masthead. */
export function MagazineLayout({
  children,
  masthead,
  headerActions,
}: {
  children: ReactNode
  masthead?: ReactNode
  headerActions?: ReactNode
}) {
  const site = useSite()
  return (
    <div className="flex min-h-dvh flex-col" data-layout="magazine">
      <Header demo={site.demoIdentity}>{headerActions}</Header>
      <div className="border-b border-slate-200 bg-base-light">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
          <p className="font-black tracking-wide text-base-ink">{appConfig.magazineName}</p>
          {masthead}
        </div>
      </div>
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <BottomNav />
    </div>
  )
}
