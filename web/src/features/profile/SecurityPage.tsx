import { Badge, Box, Button, Flex, HStack, Image, Input, RadioGroup, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { FormField, FormStack } from '../../components/FormField'
import { PasswordInput } from '../../components/PasswordInput'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, StaleNote } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { clearToken } from '../../lib/auth'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import {
  useChangePassword, useEnableTwoStep, useRevokeAll, useRevokeSession, useSessions, useShowQR, useTwoStep, type Session,
} from './api'

const fail = (err: unknown) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) })

function PasswordCard() {
  const change = useChangePassword()
  const [v, setV] = useState({ current_password: '', password: '', password_confirmation: '' })
  const err = (k: string) => (isApiError(change.error) ? change.error.fieldError(k) : undefined)
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    change.mutate(v, {
      onSuccess: () => {
        setV({ current_password: '', password: '', password_confirmation: '' })
        toaster.create({ type: 'success', description: 'رمز عبور تغییر کرد و نشست‌های دیگر بسته شدند' })
      },
      onError: fail,
    })
  }
  const field = (k: keyof typeof v, label: string) => (
    <FormField label={label} error={err(k)} required>
      <PasswordInput value={v[k]} onChange={(e) => setV({ ...v, [k]: e.target.value })} aria-label={label} data-testid={`pw-${k}`} />
    </FormField>
  )
  return (
    <SectionCard title="تغییر رمز عبور" description="پس از تغییر، همه نشست‌های دیگر شما بسته می‌شوند.">
      <FormStack gap="4" onSubmit={submit} noValidate maxW="md">
        {field('current_password', 'رمز عبور فعلی')}
        {field('password', 'رمز عبور جدید')}
        {field('password_confirmation', 'تکرار رمز عبور جدید')}
        <Text fontSize="xs" color="app.muted">
          حداقل ۸ کاراکتر با عدد، حرف کوچک و بزرگ انگلیسی؛ بدون نام کاربری. استفاده از @!$%& توصیه می‌شود.
        </Text>
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={change.isPending} data-testid="pw-save">
          تغییر رمز عبور
        </Button>
      </FormStack>
    </SectionCard>
  )
}

const METHODS: [string, string][] = [['sms', 'پیامک'], ['voice', 'تماس صوتی'], ['app', 'اپلیکیشن احراز هویت']]

function TwoStepCard() {
  const status = useTwoStep()
  const enable = useEnableTwoStep()
  const qr = useShowQR()
  const [method, setMethod] = useState<string | null>(null)
  const [code, setCode] = useState('')
  if (status.isPending) return <Skeleton h="32" rounded="card" />
  if (!status.data) return <ErrorState description={errorText(status.error)} onRetry={() => status.refetch()} />
  const chosen = method ?? status.data.method
  const save = () =>
    enable.mutate(
      { method: chosen, code },
      { onSuccess: () => { setCode(''); qr.reset(); toaster.create({ type: 'success', description: 'روش ورود دومرحله‌ای ذخیره شد' }) }, onError: fail },
    )
  const needsQR = chosen === 'app' && !(status.data.app_enabled && status.data.method === 'app')
  return (
    <SectionCard title="ورود دومرحله‌ای" description="پس از رمز عبور، کد تایید با روش انتخابی شما خواسته می‌شود."
      actions={<Badge colorPalette={status.data.enabled ? 'green' : 'gray'}>{status.data.enabled ? 'فعال' : 'غیرفعال'}</Badge>}>
      <Stack gap="4">
        <RadioGroup.Root value={chosen} onValueChange={(e) => setMethod(e.value)} data-testid="twostep-method">
          <Stack gap="2">
            {METHODS.map(([v, l]) => (
              <RadioGroup.Item key={v} value={v}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{l}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
        {needsQR && (
          <Stack gap="3" maxW="md">
            {!qr.data ? (
              <Button variant="outline" alignSelf="flex-start" loading={qr.isPending} onClick={() => qr.mutate()} data-testid="twostep-qr">
                نمایش کد QR
              </Button>
            ) : (
              <Flex gap="4" wrap="wrap" align="center">
                <Box bg="white" p="2" rounded="md">
                  <Image src={qr.data.qr_image} alt="کد QR اپلیکیشن احراز هویت" boxSize="180px" data-testid="twostep-qr-image" />
                </Box>
                <Stack gap="1" flex="1" minW="48">
                  <Text fontSize="sm">کد را با Google Authenticator یا برنامه مشابه اسکن کنید، یا این کلید را وارد کنید:</Text>
                  <Text fontFamily="mono" dir="ltr" fontSize="sm" wordBreak="break-all">{qr.data.secret}</Text>
                </Stack>
              </Flex>
            )}
            <FormField label="کد شش‌رقمی اپلیکیشن" error={isApiError(enable.error) ? enable.error.fieldError('code') : undefined}>
              <Input inputMode="numeric" dir="ltr" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} data-testid="twostep-code" />
            </FormField>
          </Stack>
        )}
        <Button colorPalette="brand" alignSelf="flex-start" loading={enable.isPending} onClick={save} data-testid="twostep-save"
          disabled={needsQR && code.length < 6}>
          ذخیره روش ورود
        </Button>
      </Stack>
    </SectionCard>
  )
}

function SessionRow({ s }: { s: Session }) {
  const revoke = useRevokeSession()
  return (
    <Flex gap="3" py="3" borderBottomWidth="1px" borderColor="app.border" align="center" wrap="wrap" data-testid="session-row">
      <Stack gap="0.5" flex="1" minW="48">
        <HStack gap="2">
          <Text fontSize="sm" fontWeight="medium" dir="ltr" truncate maxW="md">{s.user_agent || 'نامشخص'}</Text>
          {s.current && <Badge colorPalette="green">همین دستگاه</Badge>}
          {s.staff && <Badge colorPalette="purple">پشتیبانی</Badge>}
        </HStack>
        <Text fontSize="xs" color="app.muted">
          نشانی {toPersianDigits(s.ip)} · ورود {formatJalaliDateTime(s.created_at)}
        </Text>
      </Stack>
      {!s.current && (
        <Button size="xs" variant="outline" colorPalette="red" loading={revoke.isPending} onClick={() => revoke.mutate(s.id, { onError: fail })}>
          خروج
        </Button>
      )}
    </Flex>
  )
}

function SessionsCard() {
  const sessions = useSessions()
  const all = useRevokeAll()
  const qc = useQueryClient()
  const navigate = useNavigate()
  const everywhere = (includeCurrent: boolean) =>
    all.mutate(includeCurrent, {
      onSuccess: () => {
        if (!includeCurrent) return void toaster.create({ type: 'success', description: 'از همه دستگاه‌های دیگر خارج شدید' })
        clearToken()
        qc.clear()
        navigate('/login', { replace: true })
      },
      onError: fail,
    })
  return (
    <SectionCard title="نشست‌های فعال" description="دستگاه‌ها و مرورگرهایی که با حساب شما وارد شده‌اند." data-testid="sessions-card">
      <HStack gap="2" wrap="wrap" mb="3">
        <Button size="sm" variant="outline" loading={all.isPending} onClick={() => everywhere(false)} data-testid="sessions-others">
          خروج از دستگاه‌های دیگر
        </Button>
        <Button size="sm" colorPalette="red" loading={all.isPending} onClick={() => everywhere(true)} data-testid="sessions-everywhere">
          خروج از همه جا
        </Button>
      </HStack>
      {sessions.isError && sessions.data && <StaleNote />}
      {sessions.isPending ? (
        <Skeleton h="24" />
      ) : !sessions.data ? (
        <ErrorState description={errorText(sessions.error)} onRetry={() => sessions.refetch()} />
      ) : sessions.data.length === 0 ? (
        <EmptyState />
      ) : (
        sessions.data.map((s) => <SessionRow key={s.id} s={s} />)
      )}
    </SectionCard>
  )
}

/** /profile/security-setting: password, two-step login and the open sessions. */
export default function SecurityPage() {
  return (
    <Stack gap="4">
      <PasswordCard />
      <TwoStepCard />
      <SessionsCard />
    </Stack>
  )
}
