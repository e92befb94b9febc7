import '@tanstack/react-start/server-only'
import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import { getSessionAccessToken } from './auth/flow.server'

export class UnauthorizedError extends Error {
  status = 401
  constructor() {
    super('ログインしてください')
  }
}

/**
 * The signed-in person's access token for a server function, renewing it when it is about to expire (the
 * renewed session cookie goes out with this response). Undefined when signed out.
 */
export async function currentAccessToken(): Promise<string | undefined> {
  const session = await getSessionAccessToken(getRequest(), {
    onSetCookie: (header) => appendResponseHeader('set-cookie', header),
  })
  return session?.accessToken
}

/** Like currentAccessToken, but a signed-out caller is an error (status 401). */
export async function requireAccessToken(): Promise<string> {
  const token = await currentAccessToken()
  if (!token) throw new UnauthorizedError()
  return token
}
