import { notFound, redirect } from '@tanstack/react-router'
import { type AuthState, REGISTER_CONFIRM_EMAIL, REGISTER_INPUT, registrationTarget } from './auth-state'

type GuardArgs = { context: { auth: AuthState }; location: { href: string; pathname: string } }

/**
 * beforeLoad of every sign-in-required route (spec §4). A UX guard only: every server function and API handler
 * checks the session and ownership again.
 * - signed out → the top page with the login modal, whose 'ログイン' comes back here;
 * - signed in without a profile → the registration step that fits.
 */
export function requireMember({ context, location }: GuardArgs) {
  const { auth } = context
  if (auth.status !== 'authenticated') throw redirect({ to: '/', search: { login: location.href } })
  const target = registrationTarget(auth)
  if (target) throw redirect({ href: target })
}

/**
 * beforeLoad of /admin (運営管理): visitors go to the login like any private page; a member who is not an operator
 * gets the 404 page (the admin pages do not exist for them). UX only: every /v1/admin call checks the role itself.
 */
export function requireOperator(args: GuardArgs) {
  requireMember(args)
  const { auth } = args.context
  if (auth.status !== 'authenticated' || !auth.user?.is_operator) throw notFound()
}

/**
 * beforeLoad of the register routes: signed in; a registered person on input/confirm_email goes to the top; someone
 * without a profile is on the step that fits them (an unverified e-mail cannot open the form: the API would refuse
 * the registration after it was filled in).
 */
export function requireRegistering({ context, location }: GuardArgs) {
  const { auth } = context
  if (auth.status !== 'authenticated') throw redirect({ to: '/', search: { login: location.href } })
  const step = location.pathname === REGISTER_INPUT || location.pathname === REGISTER_CONFIRM_EMAIL
  if (!step) return
  if (auth.user) throw redirect({ to: '/' })
  const target = registrationTarget(auth)
  if (target && target !== location.pathname) throw redirect({ href: target })
}
