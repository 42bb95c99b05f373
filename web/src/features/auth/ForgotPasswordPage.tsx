import { Button, Input, Link, Text } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { FormField, FormStack } from '../../components/FormField'
import { PasswordInput } from '../../components/PasswordInput'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi } from './api'
import { AuthShell } from './AuthShell'
import { CodeForm } from './CodeForm'
import { useCountdown } from './useCountdown'
import { confirmationError, passwordError } from './validation'

type Step = { kind: 'username' } | { kind: 'code'; reset_token: string; message?: string } | { kind: 'password'; change_token: string }

/** The answer is the same for every username and shows no digit of the mobile. */
const SENT = 'اگر این نام کاربری ثبت شده باشد، کد بازیابی به شماره همراه آن پیامک شد.'


function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <Text as="div" color="fg.error" fontSize="sm" role="alert">
      <ServerMessage error={error} />
    </Text>
  )
}

/** Forgot password: username → six-digit code sent by SMS → new password. */
export default function ForgotPasswordPage() {
  const navigate = useNavigate()
  const [step, setStep] = useState<Step>({ kind: 'username' })
  const [username, setUsername] = useState('')
  const [pw, setPw] = useState({ password: '', confirmation: '', submitted: false })
  const { left, restart } = useCountdown(0)

  const request = useMutation({
    mutationFn: () => authApi.forgotPassword(toLatinDigits(username.trim())),
    meta: { silent: true },
    onSuccess: (d) => {
      restart(d.resend_after ?? 120)
      setStep({ kind: 'code', reset_token: d.reset_token, message: d.message })
    },
  })
  const resend = useMutation({
    mutationFn: (reset_token: string) => authApi.sendOtp({ reset_token, method: 'sms' }),
    meta: { silent: true },
    onSuccess: (d) => restart(d?.resend_after ?? 120),
  })
  const check = useMutation({ mutationFn: authApi.forgotCheckOtp, meta: { silent: true }, onSuccess: (d) => setStep({ kind: 'password', change_token: d.change_token }) })
  const change = useMutation({
    mutationFn: authApi.changePasswordByToken,
    meta: { silent: true },
    onSuccess: () => {
      toaster.create({ type: 'success', title: 'رمز عبور تغییر کرد', description: 'با رمز عبور جدید وارد شوید.' })
      navigate('/login', { replace: true })
    },
  })

  const submitUsername = (e: FormEvent) => {
    e.preventDefault()
    if (username.trim()) request.mutate()
  }
  const pwErr = pw.submitted ? passwordError(pw.password, username) : null
  const confErr = pw.submitted ? confirmationError(pw.password, pw.confirmation) : null
  const changeErr = change.error instanceof ApiError ? change.error : null
  const submitPassword = (e: FormEvent) => {
    e.preventDefault()
    setPw((p) => ({ ...p, submitted: true }))
    if (step.kind !== 'password' || passwordError(pw.password, username) || confirmationError(pw.password, pw.confirmation)) return
    change.mutate({ change_token: step.change_token, password: pw.password, password_confirmation: pw.confirmation })
  }

  return (
    <AuthShell title="بازیابی رمز عبور" subtitle={step.kind === 'password' ? 'رمز عبور جدید خود را وارد کنید.' : 'کد تایید به موبایل ثبت‌شده در حساب ارسال می‌شود.'}>
      {step.kind === 'username' && (
        <FormStack gap="4" onSubmit={submitUsername} noValidate>
          <FormField label="نام کاربری" required error={request.error instanceof ApiError ? request.error.fieldError('username') : undefined}>
            <Input value={username} onChange={(e) => setUsername(e.target.value)} dir="ltr" autoComplete="username" autoFocus data-testid="forgot-username" />
          </FormField>
          <ErrorLine error={request.error instanceof ApiError && request.error.fieldError('username') ? null : request.error} />
          <Button type="submit" colorPalette="brand" size="lg" loading={request.isPending} disabled={!username.trim()} data-testid="forgot-submit">
            ارسال کد تایید
          </Button>
        </FormStack>
      )}
      {step.kind === 'code' && (
        <CodeForm
          hint={step.message || SENT}
          error={check.error ?? resend.error}
          submitting={check.isPending}
          resending={resend.isPending}
          left={left}
          submitLabel="تایید کد"
          onSubmit={(code) => check.mutate({ reset_token: step.reset_token, code })}
          onResend={() => resend.mutate(step.reset_token)}
          testId="forgot"
        />
      )}
      {step.kind === 'password' && (
        <FormStack gap="4" onSubmit={submitPassword} noValidate>
          <FormField label="رمز عبور جدید" required error={pwErr ?? changeErr?.fieldError('password')} helper="حداقل ۸ کاراکتر، عدد و حروف بزرگ و کوچک انگلیسی">
            <PasswordInput value={pw.password} onChange={(e) => setPw((p) => ({ ...p, password: e.target.value }))} autoComplete="new-password" autoFocus data-testid="forgot-password" />
          </FormField>
          <FormField label="تکرار رمز عبور جدید" required error={confErr ?? changeErr?.fieldError('password_confirmation')}>
            <PasswordInput value={pw.confirmation} onChange={(e) => setPw((p) => ({ ...p, confirmation: e.target.value }))} autoComplete="new-password" data-testid="forgot-password2" />
          </FormField>
          <ErrorLine error={changeErr && Object.keys(changeErr.errors).length ? null : change.error} />
          <Button type="submit" colorPalette="brand" size="lg" loading={change.isPending} data-testid="forgot-save">
            ذخیره رمز عبور
          </Button>
        </FormStack>
      )}
      <Text textAlign="center" fontSize="sm" color="app.muted" mt="5">
        <Link asChild color="brand.fg" fontWeight="semibold">
          <RouterLink to="/login">بازگشت به صفحه ورود</RouterLink>
        </Link>
      </Text>
    </AuthShell>
  )
}
