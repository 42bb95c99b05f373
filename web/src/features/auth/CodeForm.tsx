import { Button, Input, Text } from '@chakra-ui/react'
import { useState, type FormEvent, type ReactNode } from 'react'
import { ApiError } from '../../lib/apiError'
import { onlyDigits, toPersianDigits } from '../../lib/digits'
import { FormField, FormStack } from '../../components/FormField'
import { ServerMessage } from '../../components/ServerMessage'
import { formatCountdown } from './useCountdown'

/** SMS codes are six digits. */
export const CODE_LENGTH = 6

interface Props {
  hint: ReactNode
  error: unknown
  submitting: boolean
  resending: boolean
  /** Seconds until a resend is allowed. */
  left: number
  submitLabel: string
  onSubmit: (code: string) => void
  onResend: () => void
  /** Prefix of the test ids: `${testId}-code`, `-submit`, `-resend`, `-countdown`, `-hint`. */
  testId: string
}

/** A texted code: the hint, the code field (Persian digits too), submit, and resend after a countdown. */
export function CodeForm({ hint, error, submitting, resending, left, submitLabel, onSubmit, onResend, testId }: Props) {
  const [code, setCode] = useState('')
  const api = error instanceof ApiError ? error : null
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (code.length === CODE_LENGTH) onSubmit(code)
  }
  return (
    <FormStack gap="4" onSubmit={submit} noValidate>
      <Text fontSize="sm" color="app.muted" data-testid={`${testId}-hint`}>
        {hint}
      </Text>
      <FormField label="کد تایید" required error={api?.fieldError('code')}>
        <Input
          value={toPersianDigits(code)}
          onChange={(e) => setCode(onlyDigits(e.target.value).slice(0, CODE_LENGTH))}
          inputMode="numeric"
          autoComplete="one-time-code"
          dir="ltr"
          textAlign="center"
          letterSpacing="0.5em"
          fontSize="xl"
          h="12"
          autoFocus
          data-testid={`${testId}-code`}
        />
      </FormField>
      {error && !api?.fieldError('code') ? (
        <Text as="div" color="fg.error" fontSize="sm" role="alert">
          <ServerMessage error={error} />
        </Text>
      ) : null}
      <Button type="submit" colorPalette="brand" size="lg" loading={submitting} disabled={code.length !== CODE_LENGTH} data-testid={`${testId}-submit`}>
        {submitLabel}
      </Button>
      {left > 0 ? (
        <Text fontSize="sm" color="app.muted" textAlign="center" data-testid={`${testId}-countdown`}>
          ارسال مجدد تا {formatCountdown(left)}
        </Text>
      ) : (
        <Button variant="plain" size="sm" color="brand.fg" loading={resending} onClick={onResend} data-testid={`${testId}-resend`}>
          ارسال مجدد کد
        </Button>
      )}
    </FormStack>
  )
}
