import { Box, Button, Card, Center, Heading, Input, Link, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router'
import { toLatinDigits } from '../../lib/digits'
import { useAcceptInvite } from './api'
import { MESSAGES } from './model'
import { ErrorAlert, fieldError, FormField, FormStack, generalError, toastOk } from './ui'

const FIELDS = ['username', 'code', 'password', 'password_confirmation']

/** /accept-invite: an invited colleague sets a password with the SMS code, then logs in (two-step). */
export default function AcceptInvitePage() {
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const accept = useAcceptInvite()
  const [form, setForm] = useState({ username: params.get('username') ?? '', code: '', password: '', password_confirmation: '' })
  const [touched, setTouched] = useState(false)
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
  const err = (k: keyof typeof form) => (touched && !form[k].trim() ? MESSAGES.required : undefined) || fieldError(accept.error, k)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (FIELDS.some((k) => !form[k as keyof typeof form].trim())) return
    accept.mutate({ ...form, username: form.username.trim(), code: toLatinDigits(form.code.trim()) }, {
      onSuccess: () => {
        toastOk('رمز عبور تعیین شد؛ اکنون وارد شوید')
        navigate('/login')
      },
    })
  }
  return (
    <Center minH="100dvh" bg="app.canvas" p="4">
      <Card.Root w="full" maxW="md" rounded="xl" variant="outline">
        <Card.Body>
          <FormStack gap="4" onSubmit={submit} noValidate data-testid="accept-form">
            <Heading size="md">پذیرش دعوت همکاری</Heading>
            <Text fontSize="sm" color="fg.muted">شماره همراهی که دعوت به آن پیامک شده (یا نام کاربری‌تان) و کد دعوت را وارد کنید و رمز عبور خود را تعیین کنید.</Text>
            <FormField label="شماره همراه یا نام کاربری" required error={err('username')}>
              <Input value={form.username} onChange={set('username')} dir="ltr" data-testid="accept-username" />
            </FormField>
            <FormField label="کد دعوت" required error={err('code')}>
              <Input value={form.code} onChange={set('code')} dir="ltr" inputMode="numeric" autoComplete="one-time-code" data-testid="accept-code" />
            </FormField>
            <FormField label="رمز عبور" required error={err('password')}>
              <Input type="password" value={form.password} onChange={set('password')} dir="ltr" data-testid="accept-password" />
            </FormField>
            <FormField label="تکرار رمز عبور" required error={err('password_confirmation')}>
              <Input type="password" value={form.password_confirmation} onChange={set('password_confirmation')} dir="ltr" data-testid="accept-password2" />
            </FormField>
            {generalError(accept.error, FIELDS) && <ErrorAlert error={accept.error} />}
            <Button type="submit" colorPalette="brand" loading={accept.isPending} data-testid="accept-submit">تعیین رمز عبور</Button>
            <Box textAlign="center" fontSize="sm">
              <Link asChild colorPalette="brand"><RouterLink to="/login">بازگشت به ورود</RouterLink></Link>
            </Box>
          </FormStack>
        </Card.Body>
      </Card.Root>
    </Center>
  )
}
