import { useEffect } from 'react'
import { APP_LOAD_KEY, stopLoading } from './ui-store'

/**
 * App start holds the `appLoad` loading key (spec §4) until the app knows who the user is.
 * The page is server-rendered, so once hydrated nothing else is awaited here.
 */
export function AppLoad() {
  useEffect(() => {
    stopLoading(APP_LOAD_KEY)
    // Lets tests (and people debugging) know the client has taken over the server-rendered page.
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return null
}
