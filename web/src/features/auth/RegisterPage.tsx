import { Button, Checkbox, Input, Link, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ApiError } from '../../lib/apiError'
import { setToken } from '../../lib/auth'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { FormField, FormStack } from '../../components/FormField'
import { PasswordInput } from '../../components/PasswordInput'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi, type Registration } from './api'
import { AuthShell } from './AuthShell'
import { CodeForm } from './CodeForm'
import { useCountdown } from './useCountdown'
import { useUsernameCheck } from './useUsernameCheck'
import { MOBILE_ERROR, confirmationError, hasRecommendedSymbol, isIranMobile, passwordError, toLocalMobile, usernameError } from './validation'

type Fields = 'name' | 'username' | 'mobile' | 'password' | 'password_confirmation' | 'accept_rules'
const EMPTY = { name: '', username: '', mobile: '', password: '', password_confirmation: '' }

function validate(v: typeof EMPTY, accepted: boolean): Partial<Record<Fields, string>> {
  const e: Partial<Record<Fields, string>> = {}
  if (!v.name.trim()) e.name = 'نام و نام خانوادگی را وارد کنید'
  const u = usernameError(v.username)
  if (u) e.username = u
  if (!isIranMobile(v.mobile)) e.mobile = MOBILE_ERROR
  const p = passwordError(v.password, v.username)
  if (p) e.password = p
  const c = confirmationError(v.password, v.password_confirmation)
  if (c) e.password_confirmation = c
  if (!accepted) e.accept_rules = 'پذیرش قوانین و مقررات الزامی است'
  return e
}

/** Step 2 of sign-up: the code texted to the mobile proves it and opens a session. */
function VerifyMobile({ reg, mobile }: { reg: Registration; mobile: string }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { left, restart } = useCountdown(reg.resend_after ?? 120)
  const verify = useMutation({
    mutationFn: (code: string) => authApi.verifyRegistration({ verify_token: reg.verify_token, code }),
    meta: { silent: true },
    onSuccess: (d) => {
      queryClient.clear()
      setToken(d.token)
      toaster.create({ type: 'success', title: 'ثبت‌نام با موفقیت انجام شد' })
      navigate('/dashboard', { replace: true })
    },
  })
  const resend = useMutation({
    mutationFn: () => authApi.sendOtp({ verify_token: reg.verify_token, method: 'sms' }),
    meta: { silent: true },
    onSuccess: (d) => restart(d?.resend_after ?? 120),
  })
  return (
    <CodeForm
      hint={
        <>
          کد تایید شش‌رقمی به شماره <bdi dir="ltr">{toPersianDigits(mobile)}</bdi> پیامک شد. تا تایید شماره، حساب فعال نمی‌شود.
        </>
      }
      error={verify.error ?? resend.error}
      submitting={verify.isPending}
      resending={resend.isPending}
      left={left}
      submitLabel="تایید شماره و ورود"
      onSubmit={(code) => verify.mutate(code)}
      onResend={() => resend.mutate()}
      testId="reg-verify"
    />
  )
}

/** /register: create an account, prove the mobile with the texted code, and enter. */
export default function RegisterPage() {
  const [values, setValues] = useState(EMPTY)
  const [accepted, setAccepted] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const check = useUsernameCheck(values.username)
  const register = useMutation({ mutationFn: authApi.register, meta: { silent: true } })
  const server = register.error instanceof ApiError ? register.error : null
  const clientErrors = submitted ? validate(values, accepted) : {}
  const errorOf = (f: Fields) => clientErrors[f] ?? server?.fieldError(f)
  const usernameTaken = check.exists ? 'این نام کاربری قبلا ثبت شده است' : undefined
  const hasFieldErrors = server && Object.keys(server.errors).length > 0

  const set = (f: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [f]: e.target.value }))
  const trim = (f: keyof typeof EMPTY) => () => setValues((v) => ({ ...v, [f]: v[f].trim() }))

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (Object.keys(validate(values, accepted)).length || check.exists) return
    register.mutate({
      name: values.name.trim(),
      username: values.username.trim(),
      mobile: toLocalMobile(values.mobile),
      password: values.password,
      password_confirmation: values.password_confirmation,
      accept_rules: true,
    })
  }

  if (register.data) {
    return (
      <AuthShell title="تایید شماره موبایل" subtitle="کد پیامک‌شده را وارد کنید.">
        <VerifyMobile reg={register.data} mobile={toLocalMobile(values.mobile)} />
      </AuthShell>
    )
  }

  return (
    <AuthShell title="ایجاد حساب کاربری" subtitle="چند ثانیه تا شروع ارسال پیامک فاصله دارید.">
      <FormStack gap="4" onSubmit={submit} noValidate>
        <FormField label="نام و نام خانوادگی" error={errorOf('name')} required>
          <Input name="name" value={values.name} onChange={set('name')} onBlur={trim('name')} autoComplete="name" data-testid="reg-name" />
        </FormField>
        <FormField
          label="نام کاربری"
          error={errorOf('username') ?? usernameTaken}
          helper={check.checking ? <Spinner size="xs" /> : check.available ? 'این نام کاربری آزاد است' : 'حروف انگلیسی و عدد'}
          required
        >
          <Input name="username" value={values.username} onChange={set('username')} onBlur={trim('username')} dir="ltr" autoComplete="username" data-testid="reg-username" />
        </FormField>
        <FormField label="شماره موبایل" error={errorOf('mobile')} required>
          <Input name="mobile" value={values.mobile} onChange={set('mobile')} onBlur={trim('mobile')} type="tel" inputMode="tel" dir="ltr" placeholder="۰۹۱۲۳۴۵۶۷۸۹" autoComplete="tel" data-testid="reg-mobile" />
        </FormField>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <FormField
            label="رمز عبور"
            error={errorOf('password')}
            helper={values.password && !hasRecommendedSymbol(values.password) ? 'پیشنهاد: از نمادهای @!$%& هم استفاده کنید' : 'حداقل ۸ کاراکتر، عدد و حروف بزرگ و کوچک'}
            required
          >
            <PasswordInput name="password" value={values.password} onChange={set('password')} autoComplete="new-password" data-testid="reg-password" />
          </FormField>
          <FormField label="تکرار رمز عبور" error={errorOf('password_confirmation')} required>
            <PasswordInput name="password_confirmation" value={values.password_confirmation} onChange={set('password_confirmation')} autoComplete="new-password" data-testid="reg-password2" />
          </FormField>
        </SimpleGrid>
        <Stack gap="1">
          <Checkbox.Root checked={accepted} onCheckedChange={(e) => setAccepted(e.checked === true)} colorPalette="brand" invalid={!!errorOf('accept_rules')} data-testid="reg-accept">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label fontSize="sm">قوانین و مقررات استفاده از سامانه را خوانده‌ام و می‌پذیرم.</Checkbox.Label>
          </Checkbox.Root>
          {errorOf('accept_rules') && (
            <Text fontSize="xs" color="fg.error">
              {errorOf('accept_rules')}
            </Text>
          )}
        </Stack>
        {register.error && !hasFieldErrors ? (
          <Text as="div" color="fg.error" fontSize="sm" role="alert">
            <ServerMessage error={register.error} />
          </Text>
        ) : null}
        <Button type="submit" colorPalette="brand" size="lg" loading={register.isPending} data-testid="reg-submit">
          ثبت‌نام
        </Button>
        <Text textAlign="center" fontSize="sm" color="app.muted">
          حساب کاربری دارید؟{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink to="/login">وارد شوید</RouterLink>
          </Link>
        </Text>
      </FormStack>
    </AuthShell>
  )
}
