import { Alert, Badge } from '@chakra-ui/react'
import { ServerMessage as ServerText } from '../../components/ServerMessage'
import { isApiError } from '../../lib/api'
import { toaster } from '../../lib/toaster'
import { STATUS, type ColleagueStatus } from './model'

export { FormField, FormStack } from '../../components/FormField'
export { ServerText }

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
