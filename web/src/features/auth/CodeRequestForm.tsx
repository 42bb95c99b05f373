import { Button, Input, Text } from '@chakra-ui/react'
import { useMutation } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits } from '../../lib/digits'
import { FormField, FormStack } from '../../components/FormField'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi, type LoginResult } from './api'

interface Props {
  onResult: (result: LoginResult) => void
}

const REQUIRED = 'نام کاربری یا شماره همراه را وارد کنید'

/**
 * Step 1 of a code login (POST /acl/auth/login_otp): a username or a mobile, in Persian or
 * Latin digits. The answer is the same for every name, so the next step never tells
 * whether a code was really sent.
 */
export function CodeRequestForm({ onResult }: Props) {
  const [name, setName] = useState('')
  const [touched, setTouched] = useState(false)
  const request = useMutation({ mutationFn: authApi.loginByCode, meta: { silent: true }, onSuccess: onResult })
  const err = request.error instanceof ApiError ? request.error : null
  const fieldErr = (touched && !name.trim() ? REQUIRED : null) ?? err?.fieldError('username')
  const general = request.error && !err?.fieldError('username') ? request.error : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (name.trim()) request.mutate(toLatinDigits(name.trim()))
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate>
      <FormField label="نام کاربری یا شماره همراه" error={fieldErr} required
        helper="رمز یکبار مصرف به شماره همراه ثبت‌شده در حساب پیامک می‌شود.">
        <Input
          name="username"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setName((n) => n.trim())}
          autoComplete="username"
          dir="ltr"
          placeholder="۰۹۱۲۱۲۳۴۵۶۷"
          autoFocus
          data-testid="code-login-username"
        />
      </FormField>
      {general ? (
        <Text as="div" color="fg.error" fontSize="sm" role="alert" data-testid="code-login-error">
          <ServerMessage error={general} />
        </Text>
      ) : null}
      <Button type="submit" colorPalette="brand" size="lg" loading={request.isPending} loadingText="در حال ارسال" data-testid="code-login-submit">
        ارسال رمز یکبار مصرف
      </Button>
      <Text fontSize="xs" color="app.muted" textAlign="center" data-testid="code-login-note">
        اگر ورود دومرحله‌ای حسابتان روشن است، با رمز عبور وارد شوید؛ ورود با رمز یکبار مصرف برای همکاران و حساب‌های دارای ورود
        دومرحله‌ای بسته است.
      </Text>
    </FormStack>
  )
}
