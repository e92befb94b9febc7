import { useSuspenseQuery } from '@tanstack/react-query'
import { authStateQuery } from './queries'

/** The current auth state (loaded by the root route on the server, so it never suspends on first render). */
export function useAuth() {
  return useSuspenseQuery(authStateQuery()).data
}
