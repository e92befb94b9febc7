import type { ReactNode } from 'react'
import { BottomNav } from '../shell/bottom-nav'
import { Footer } from '../shell/footer'
import { Header } from '../shell/header'
import { useSite } from '../shell/use-site'

export function DefaultLayout({
  children,
  headerActions,
}: {
  children: ReactNode
  headerActions?: ReactNode
}) {
  const site = useSite()
  return (
    <div className="flex min-h-dvh flex-col" data-layout="default">
      <Header demo={site.demoIdentity}>{headerActions}</Header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <BottomNav />
    </div>
  )
}
