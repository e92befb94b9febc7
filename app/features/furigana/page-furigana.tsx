import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { FuriganaScope, useFuriganaOn } from '~/components/ui/ruby'
import type { FuriganaIdsInput } from './furigana.functions'
import { furiganaQuery } from './queries'

/** The readings of a page's content, for the <Ruby> texts inside (loaded by the route's loader when the mode is on). */
export function PageFurigana({ ids, children }: { ids: FuriganaIdsInput; children: ReactNode }) {
  const on = useFuriganaOn()
  const { data } = useQuery({ ...furiganaQuery(ids), enabled: on })
  return <FuriganaScope texts={on ? data : undefined}>{children}</FuriganaScope>
}
