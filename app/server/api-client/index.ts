import '@tanstack/react-start/server-only'
import { getConfig } from '../config'
import { type ApiClient, createApiClient } from './client'
import { type ApiTransport, httpTransport, inProcessTransport } from './transport'

export { type ApiClient, type AuthedCall, createApiClient, type MeResult } from './client'
export { ApiError } from './errors'
export { meOf } from './me'
export {
  type ApiRequest,
  type ApiResponse,
  type ApiTransport,
  httpTransport,
  inProcessTransport,
} from './transport'

let transport: ApiTransport | undefined

/**
 * The BFF's transport: the API in this process by default (docs/decisions/0003-api-in-process.md),
 * or HTTP to API_BASE_URL when it is set. Chosen on first use, not at import.
 */
export function defaultTransport(): ApiTransport {
  transport ??= (() => {
    const baseUrl = getConfig().apiBaseUrl
    if (baseUrl) return httpTransport(baseUrl)
    // Imported lazily so that the HTTP mode never loads the API, its framework or the database.
    return inProcessTransport(async () => (await import('../api-app.server')).getApiApp())
  })()
  return transport
}

/**
 * The /v1 client for server functions: one typed function per endpoint, every response checked. A website that
 * calls a separate API (API_BASE_URL) without sharing its PostgreSQL cannot hear other instances' writes, so it
 * keeps no cache of public reads.
 */
const unsharedApi = Boolean(process.env.API_BASE_URL?.trim() && !process.env.DATABASE_URL?.trim())
export const api: ApiClient = createApiClient(defaultTransport, {
  searchResultsTtlMs: unsharedApi ? 0 : undefined,
  publicResultsTtlMs: unsharedApi ? 0 : undefined,
})
