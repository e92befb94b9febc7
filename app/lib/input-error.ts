/**
 * Bad input found by a server function's validator: the caller gets 400 with this (Japanese) message. Plain
 * `Error`s are treated as our own faults (500), so validators throw this instead.
 */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError'
  readonly status = 400
  readonly code = 'invalid_request'
}

/** Validator of an upload server function: the FormData's `file`. */
export function fileInput(input: unknown): File {
  const file = input instanceof FormData ? input.get('file') : undefined
  if (!(file instanceof File)) throw new InvalidInputError('画像ファイルを選択してください')
  return file
}
