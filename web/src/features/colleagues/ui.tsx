import { Alert, Badge, Box, Field, chakra, type BoxProps } from '@chakra-ui/react'
import { useMemo, type ReactNode } from 'react'
import { errorDisplay } from '../../lib/apiError'
import { isApiError } from '../../lib/api'
import { sanitizeServerHtml } from '../../lib/sanitize'
import { toaster } from '../../lib/toaster'
import { STATUS, type ColleagueStatus } from './model'

/** Label, control and the (client or server) error under it. */
export function FormField({ label, error, helper, required, children }: {
  label: ReactNode
  error?: string | null
  helper?: ReactNode
  required?: boolean
  children: ReactNode
}) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label fontWeight="medium">
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {error ? <Field.ErrorText>{error}</Field.ErrorText> : helper ? <Field.HelperText>{helper}</Field.HelperText> : null}
    </Field.Root>
  )
}

/** A <form> laid out as a vertical stack. */
export const FormStack = chakra('form', { base: { display: 'flex', flexDirection: 'column' } })

/** An API error by the spec §8 display rule (server text may hold HTML). */
export function ServerText({ error, ...rest }: { error: unknown } & Omit<BoxProps, 'children'>) {
  const { text, html } = errorDisplay(error)
  const safe = useMemo(() => (html ? sanitizeServerHtml(text) : ''), [html, text])
  if (html) return <Box {...rest} dangerouslySetInnerHTML={{ __html: safe }} />
  return <Box whiteSpace="pre-line" {...rest}>{text}</Box>
}

export function ErrorAlert({ error }: { error: unknown }) {
  return (
    <Alert.Root status="error" rounded="lg" data-testid="colleagues-error">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>
          <ServerText error={error} />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}

/** The server's message for one field of a failed write. */
export const fieldError = (err: unknown, field: string) => (isApiError(err) ? err.fieldError(field) : undefined)

/** A failed write that named no field of the form. */
export const generalError = (err: unknown, fields: string[]) =>
  !!err && !fields.some((f) => fieldError(err, f))

export function StatusChip({ status }: { status: ColleagueStatus }) {
  const s = STATUS[status] ?? STATUS.pending
  return (
    <Badge colorPalette={s.palette} variant="subtle" rounded="full" px="2.5" data-testid={`status-${status}`}>
      {s.label}
    </Badge>
  )
}

export const toastOk = (title: string) => toaster.create({ type: 'success', title })
export const toastFail = (err: unknown) => toaster.create({ type: 'error', description: <ServerText error={err} /> })
