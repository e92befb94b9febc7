import { createSerializationAdapter } from '@tanstack/react-router'

/**
 * A server function's failure as the browser receives it: a Japanese `message` for people, a stable `code` for
 * programs, the HTTP `status`, and per-field messages for forms. Nothing else crosses (no stack, no cause).
 */
export class ServerFnError extends Error {
  override name = 'ServerFnError'
  readonly status: number
  readonly code: string
  readonly fieldErrors: Record<string, string>

  constructor(init: { message: string; status: number; code: string; fieldErrors?: Record<string, string> }) {
    super(init.message)
    this.status = init.status
    this.code = init.code
    this.fieldErrors = init.fieldErrors ?? {}
  }
}

/** Carries ServerFnError whole through Start's serializer (its default Error handling keeps the message only). */
export const serverFnErrorAdapter = createSerializationAdapter({
  key: 'manabi-server-fn-error',
  test: (value: unknown): value is ServerFnError => value instanceof ServerFnError,
  toSerializable: (error: ServerFnError) => ({
    message: error.message,
    status: error.status,
    code: error.code,
    fieldErrors: error.fieldErrors,
  }),
  fromSerializable: (value: {
    message: string
    status: number
    code: string
    fieldErrors: Record<string, string>
  }) => new ServerFnError(value),
})
