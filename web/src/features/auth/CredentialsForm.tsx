import { Button, HStack, Input, Link, Text } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Link as RouterLink } from 'react-router'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits } from '../../lib/digits'
import { FormField, FormStack } from '../../components/FormField'
import { PasswordInput } from '../../components/PasswordInput'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi, type LoginResult } from './api'

interface Props {
  onResult: (result: LoginResult) => void
}

/** Step 1 of login: username and password (POST /acl/auth/login). */
export function CredentialsForm({ onResult }: Props) {
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState(false)
  const login = useMutation({ mutationFn: authApi.login, meta: { silent: true }, onSuccess: onResult })
  const err = login.error instanceof ApiError ? login.error : null
  const usernameErr = (touched && !username.trim() ? 'نام کاربری را وارد کنید' : null) ?? err?.fieldError('username')
  const passwordErr = (touched && !password ? 'رمز عبور را وارد کنید' : null) ?? err?.fieldError('password')
  const general = login.error && !err?.fieldError('username') && !err?.fieldError('password') ? login.error : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (!username.trim() || !password) return
    login.mutate({ username: toLatinDigits(username.trim()), password })
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate>
      <FormField label="نام کاربری" error={usernameErr} required>
        <Input
          name="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          onBlur={() => setUsername((u) => u.trim())}
          autoComplete="username"
          dir="ltr"
          autoFocus
          data-testid="login-username"
        />
      </FormField>
      <FormField label="رمز عبور" error={passwordErr} required>
        <PasswordInput name="password" value={password} onChange={(e) => setPassword(e.target.value)} data-testid="login-password" />
      </FormField>
      <HStack justify="flex-end" mt="-2">
        <Link asChild fontSize="sm" color="brand.fg">
          <RouterLink to="/forgot-password">رمز عبور را فراموش کرده‌اید؟</RouterLink>
        </Link>
      </HStack>
      {general ? (
        <Text as="div" color="fg.error" fontSize="sm" role="alert" data-testid="login-error">
          <ServerMessage error={general} />
        </Text>
      ) : null}
      <Button type="submit" colorPalette="brand" size="lg" loading={login.isPending} loadingText="در حال ورود" data-testid="login-submit">
        ورود
      </Button>
      <Text textAlign="center" fontSize="sm" color="app.muted">
        حساب کاربری ندارید؟{' '}
        <Link asChild color="brand.fg" fontWeight="semibold">
          <RouterLink to="/register">ثبت‌نام کنید</RouterLink>
        </Link>
      </Text>
      <InviteHelp />
    </FormStack>
  )
}

/**
 * «دعوت‌نامه دارید؟»: a colleague invited by an account owner first sets a password with
 * the texted code on /accept-invite, then logs in here.
 */
function InviteHelp() {
  return (
    <Text textAlign="center" fontSize="xs" color="app.muted" data-testid="invite-help">
      <Link asChild color="brand.fg" fontWeight="semibold" fontSize="sm">
        <RouterLink to="/accept-invite">دعوت‌نامه دارید؟</RouterLink>
      </Link>{' '}
      اگر مدیر حسابی شما را به‌عنوان همکار دعوت کرده و کد دعوت برایتان پیامک شده، ابتدا در صفحه «پذیرش دعوت» با شماره همراه و همان کد رمز عبور خود را تعیین کنید و سپس از همین‌جا وارد شوید.
    </Text>
  )
}
