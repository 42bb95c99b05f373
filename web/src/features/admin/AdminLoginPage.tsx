import { Box, Button, Card, Field, Heading, Input, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { ApiError, errorText } from '../../lib/apiError'
import { setAdminToken } from '../../lib/auth'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { adminApi, type StaffLoginResult } from './api'

/** /admin/login: staff username and password, then always the texted code. */
export default function AdminLoginPage() {
  const [step, setStep] = useState<StaffLoginResult | null>(null)
  const navigate = useNavigate()
  const qc = useQueryClient()
  const finish = (token: string) => {
    qc.removeQueries({ queryKey: ['admin'] })
    setAdminToken(token)
    navigate('/admin/reviews', { replace: true })
  }
  return (
    <Box minH="100dvh" bg="app.canvas" display="flex" alignItems="center" justifyContent="center" px="4">
      <Card.Root w="full" maxW="420px" data-testid="admin-login">
        <Card.Body>
          <Stack gap="5">
            <Stack gap="1">
              <Heading size="lg">ورود کارشناسان پشتیبانی</Heading>
              <Text color="fg.muted" fontSize="sm">
                {step ? `کد تایید به ${toPersianDigits(step.mobile_hint ?? 'همراه شما')} پیامک شد.` : 'ورود به پنل پشتیبانی همیشه دومرحله‌ای است.'}
              </Text>
            </Stack>
            {step?.login_token ? (
              <CodeStep loginToken={step.login_token} onToken={finish} onRestart={() => setStep(null)} />
            ) : (
              <PasswordStep onResult={(r) => (r.token ? finish(r.token) : setStep(r))} />
            )}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Box>
  )
}

function fieldErr(err: unknown, field: string): string | undefined {
  return err instanceof ApiError ? err.fieldError(field) ?? undefined : undefined
}

function PasswordStep({ onResult }: { onResult: (r: StaffLoginResult) => void }) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const login = useMutation({ mutationFn: adminApi.login, meta: { silent: true }, onSuccess: onResult })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    login.mutate({ username: toLatinDigits(username.trim()), password })
  }
  const general = login.error && !fieldErr(login.error, 'username') && !fieldErr(login.error, 'password')
  return (
    <Stack as="form" gap="4" onSubmit={submit}>
      <Field.Root required invalid={!!fieldErr(login.error, 'username')}>
        <Field.Label>نام کاربری</Field.Label>
        <Input value={username} onChange={(e) => setUsername(e.target.value)} dir="ltr" autoComplete="username" autoFocus data-testid="admin-username" />
        <Field.ErrorText>{fieldErr(login.error, 'username')}</Field.ErrorText>
      </Field.Root>
      <Field.Root required invalid={!!fieldErr(login.error, 'password')}>
        <Field.Label>رمز عبور</Field.Label>
        <Input type="password" value={password} onChange={(e) => setPassword(e.target.value)} dir="ltr" autoComplete="current-password" data-testid="admin-password" />
        <Field.ErrorText>{fieldErr(login.error, 'password')}</Field.ErrorText>
      </Field.Root>
      {general ? <Text color="fg.error" fontSize="sm" role="alert" data-testid="admin-login-error">{errorText(login.error)}</Text> : null}
      <Button type="submit" colorPalette="brand" loading={login.isPending} loadingText="در حال ورود" data-testid="admin-login-submit">
        ادامه
      </Button>
    </Stack>
  )
}

function CodeStep({ loginToken, onToken, onRestart }: { loginToken: string; onToken: (t: string) => void; onRestart: () => void }) {
  const [code, setCode] = useState('')
  const confirm = useMutation({ mutationFn: adminApi.confirm, meta: { silent: true }, onSuccess: (r) => onToken(r.token) })
  const resend = useMutation({ mutationFn: () => adminApi.resend(loginToken) })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    confirm.mutate({ login_token: loginToken, code: toLatinDigits(code.trim()) })
  }
  return (
    <Stack as="form" gap="4" onSubmit={submit}>
      <Field.Root required invalid={!!confirm.error}>
        <Field.Label>کد تایید</Field.Label>
        <Input value={code} onChange={(e) => setCode(e.target.value)} dir="ltr" inputMode="numeric" autoComplete="one-time-code" autoFocus data-testid="admin-otp" />
        <Field.ErrorText>{confirm.error ? errorText(confirm.error) : null}</Field.ErrorText>
      </Field.Root>
      <Button type="submit" colorPalette="brand" loading={confirm.isPending} data-testid="admin-otp-submit">
        ورود
      </Button>
      <Stack direction="row" justify="space-between">
        <Button variant="ghost" size="sm" onClick={() => resend.mutate()} loading={resend.isPending}>ارسال دوباره کد</Button>
        <Button variant="ghost" size="sm" onClick={onRestart}>بازگشت</Button>
      </Stack>
    </Stack>
  )
}
