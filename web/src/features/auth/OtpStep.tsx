import { Alert, Button, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../lib/apiError'
import { onlyDigits, toPersianDigits } from '../../lib/digits'
import { FormField, FormStack } from '../../components/FormField'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi, type OtpMethod } from './api'
import { OtpMethodPicker } from './OtpMethodPicker'
import { formatCountdown, useCountdown } from './useCountdown'

export interface OtpChallenge {
  login_token: string
  methods: OtpMethod[]
  method: OtpMethod
  resend_after: number
  mobile_hint?: string
  /** A code login's neutral text (the same for every name): shown in place of the mobile hint. */
  message?: string
}

/** Confirm answers 401 with these codes when the login has to start again. */
const RESTART_CODES = new Set(['otp-timeout', 'otp-locked'])

interface Props {
  challenge: OtpChallenge
  onToken: (token: string) => void
  onRestart: () => void
}

/**
 * Step 2 of login, and the code step of a code login: choose SMS / voice / authenticator,
 * type (or paste) the code in Persian or Latin digits, resend after a countdown.
 */
export function OtpStep({ challenge, onToken, onRestart }: Props) {
  const [method, setMethod] = useState<OtpMethod>(challenge.method)
  const [code, setCode] = useState('')
  const { left, restart } = useCountdown(method === 'app' ? 0 : challenge.resend_after)
  const send = useMutation({
    mutationFn: (m: OtpMethod) => authApi.sendOtp({ login_token: challenge.login_token, method: m }),
    onSuccess: (d) => restart(d?.resend_after ?? 120),
  })
  const confirm = useMutation({
    mutationFn: authApi.confirmOtp,
    meta: { silent: true },
    onSuccess: (d) => onToken(d.token),
  })
  const err = confirm.error instanceof ApiError ? confirm.error : null
  const mustRestart = !!err && err.status === 401 && RESTART_CODES.has(err.messageCode)

  const choose = (m: OtpMethod) => {
    if (m === method) return
    setMethod(m)
    setCode('')
    confirm.reset()
    if (m !== 'app') send.mutate(m)
  }

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (code.length < 4) return
    confirm.mutate({ login_token: challenge.login_token, code })
  }

  if (mustRestart) {
    return (
      <Stack gap="4" data-testid="otp-restart">
        <Alert.Root status="warning" rounded="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>
              <ServerMessage error={confirm.error} />
            </Alert.Title>
            <Alert.Description>لطفا دوباره وارد شوید.</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <Button colorPalette="brand" size="lg" onClick={onRestart}>
          ورود مجدد
        </Button>
      </Stack>
    )
  }

  const hint = otpHint(method, challenge)

  return (
    <FormStack gap="5" onSubmit={submit} noValidate>
      {challenge.methods.length > 1 && (
        <OtpMethodPicker methods={challenge.methods} value={method} onChange={choose} disabled={send.isPending} />
      )}
      <Text fontSize="sm" color="app.muted" data-testid="otp-hint">
        {hint}
      </Text>
      <FormField label={challenge.message ? 'رمز یکبار مصرف' : 'کد تایید'} error={err?.fieldError('code')} required>
        <Input
          value={toPersianDigits(code)}
          onChange={(e) => setCode(onlyDigits(e.target.value).slice(0, 8))}
          inputMode="numeric"
          autoComplete="one-time-code"
          dir="ltr"
          textAlign="center"
          letterSpacing="0.5em"
          fontSize="xl"
          h="12"
          autoFocus
          data-testid="otp-code"
        />
      </FormField>
      {err && !err.fieldError('code') && (
        <Text as="div" color="fg.error" fontSize="sm" role="alert">
          <ServerMessage error={err} />
        </Text>
      )}
      <Button type="submit" colorPalette="brand" size="lg" loading={confirm.isPending} disabled={code.length < 4} data-testid="otp-submit">
        تایید و ورود
      </Button>
      <HStack justify="space-between" fontSize="sm">
        <Button variant="plain" size="sm" px="0" color="app.muted" onClick={onRestart}>
          ورود با حساب دیگر
        </Button>
        {method !== 'app' &&
          (left > 0 ? (
            <Text color="app.muted" data-testid="otp-countdown">
              ارسال مجدد تا {formatCountdown(left)}
            </Text>
          ) : (
            <Button variant="plain" size="sm" px="0" color="brand.fg" loading={send.isPending} onClick={() => send.mutate(method)} data-testid="otp-resend">
              ارسال مجدد کد
            </Button>
          ))}
      </HStack>
    </FormStack>
  )
}

/** What the step says was sent, and where: the masked mobile after a password, the neutral text of a code login. */
function otpHint(method: OtpMethod, challenge: OtpChallenge) {
  if (method === 'app') return 'کد شش‌رقمی اپلیکیشن احراز هویت را وارد کنید.'
  if (!challenge.mobile_hint && challenge.message) {
    return method === 'voice' ? 'اگر ورود با رمز یکبار مصرف برای این حساب باز باشد، رمز با تماس صوتی به شماره همراه حساب اعلام می‌شود.' : `${challenge.message}.`
  }
  return (
    <>
      کد تایید {method === 'voice' ? 'با تماس صوتی' : 'با پیامک'} به شماره{' '}
      <bdi dir="ltr">{challenge.mobile_hint ? toPersianDigits(challenge.mobile_hint) : 'موبایل شما'}</bdi> ارسال شد.
    </>
  )
}
