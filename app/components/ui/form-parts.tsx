import type { ReactNode } from 'react'

/** Shared form pieces: the input style, Japanese field errors and a labelled field wired for screen readers. */

export const inputClass =
  'mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-[1rem] text-slate-900 focus:border-purple-dark aria-[invalid=true]:border-red-dark'

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="mt-1 text-sm font-bold text-red-dark" role="alert">
      {message}
    </p>
  )
}

/** A labelled field: the control gets id, aria-invalid and aria-describedby from here. */
export function Field(props: {
  id: string
  label: string
  error?: string
  hint?: string
  children: (a11y: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode
}) {
  const described = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ')
  return (
    <div>
      <label htmlFor={props.id} className="text-sm font-bold">
        {props.label}
      </label>
      {props.hint ? (
        <p id={`${props.id}-hint`} className="text-xs text-slate-600">
          {props.hint}
        </p>
      ) : null}
      {props.children({
        id: props.id,
        'aria-invalid': Boolean(props.error),
        'aria-describedby': described || undefined,
      })}
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  )
}

/** '' → undefined, otherwise a number (NaN stays NaN so that zod reports it). */
export const numberOrUndefined = (v: string) => (v.trim() === '' ? undefined : Number(v))
