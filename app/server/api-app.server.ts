import '@tanstack/react-start/server-only'
import { apiApp } from '../api/app'
import { setAccessTokenVerifier } from '../api/auth'
import { getAccessTokenVerifierOptions } from './auth/api-verifier.server'

let wired = false

/**
 * The /v1 API app with its access-token verifier set from the identity configuration. Both the /v1 server route
 * and the BFF's in-process transport go through here, so the API never runs unconfigured.
 */
export function getApiApp() {
  if (!wired) {
    setAccessTokenVerifier(getAccessTokenVerifierOptions())
    wired = true
  }
  return apiApp
}
