import { Button, Input, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { mobileText, ReviewBadge, Row } from './parts'
import {
  useCancelMobileChange, useConfirmNewMobile, useConfirmOldMobile, useMobileChange, useProfile, useRequestMobileChange, type StepUp,
} from './api'

const fail = (err: unknown) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) })

/** The three customer steps: code to the current number, the new number, its code. */
function ChangeSteps() {
  const request = useRequestMobileChange()
  const confirmOld = useConfirmOldMobile()
  const confirmNew = useConfirmNewMobile()
  const [step, setStep] = useState<StepUp | null>(null)
  const [stage, setStage] = useState<'start' | 'old' | 'new'>('start')
  const [code, setCode] = useState('')
  const [mobile, setMobile] = useState('')
  const active = stage === 'old' ? confirmOld : confirmNew
  const err = (k: string) => (isApiError(active.error) ? active.error.fieldError(k) : undefined)
  if (stage === 'start') {
    return (
      <Button colorPalette="brand" alignSelf="flex-start" loading={request.isPending} data-testid="mobile-start"
        onClick={() => request.mutate(undefined, { onSuccess: (s) => { setStep(s); setStage('old') }, onError: fail })}>
        ارسال کد به شماره فعلی
      </Button>
    )
  }
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    if (!step) return
    if (stage === 'old') {
      confirmOld.mutate({ otp_token: step.otp_token, code, new_mobile: mobile }, {
        onSuccess: (s) => { setStep(s); setCode(''); setStage('new') }, onError: fail,
      })
    } else {
      confirmNew.mutate({ change_id: step.change_id ?? 0, otp_token: step.otp_token, code }, {
        onSuccess: () => toaster.create({ type: 'success', description: 'درخواست تغییر شماره ثبت شد و پس از بررسی پشتیبانی اعمال می‌شود' }),
        onError: fail,
      })
    }
  }
  return (
    <FormStack gap="4" onSubmit={submit} noValidate maxW="md">
      <Text fontSize="sm">کد تایید به {toPersianDigits(step?.mobile_hint ?? '')} پیامک شد.</Text>
      <FormField label="کد تایید" error={err('code')} required>
        <Input inputMode="numeric" dir="ltr" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} data-testid="mobile-code" />
      </FormField>
      {stage === 'old' && (
        <FormField label="شماره موبایل جدید" error={err('new_mobile')} required>
          <Input inputMode="tel" dir="ltr" placeholder="09XXXXXXXXX" value={mobile} onChange={(e) => setMobile(e.target.value)} data-testid="mobile-new" />
        </FormField>
      )}
      <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={active.isPending} data-testid="mobile-confirm">
        {stage === 'old' ? 'تایید و ارسال کد به شماره جدید' : 'تایید شماره جدید'}
      </Button>
    </FormStack>
  )
}

/** /profile/change-phone-number. */
export default function ChangePhonePage() {
  const profile = useProfile()
  const change = useMobileChange()
  const cancel = useCancelMobileChange()
  if (profile.isPending || change.isPending) return <Skeleton h="40" rounded="card" />
  if (!profile.data) return <ErrorState description={errorText(profile.error)} onRetry={() => profile.refetch()} />
  const open = change.data && (change.data.status === 'pending')
  return (
    <Stack gap="4">
      <SectionCard title="تغییر شماره موبایل"
        description="ابتدا کد ارسالی به شماره فعلی و سپس کد شماره جدید را وارد کنید. شماره جدید پس از بررسی پشتیبانی جایگزین می‌شود و تا آن زمان شماره فعلی برای ورود به کار می‌رود.">
        <Row label="شماره فعلی">{mobileText(profile.data.mobile)}</Row>
        <Stack mt="4">{open ? <Text>درخواست شما در انتظار بررسی است.</Text> : <ChangeSteps />}</Stack>
      </SectionCard>
      {change.data && (
        <SectionCard title="آخرین درخواست" data-testid="mobile-change-status">
          <Row label="شماره جدید">{mobileText(change.data.new_mobile)}</Row>
          <Row label="وضعیت"><ReviewBadge status={change.data.status} /></Row>
          {change.data.reason && <Row label="دلیل">{change.data.reason}</Row>}
          {open && (
            <Button mt="3" size="sm" variant="outline" colorPalette="red" loading={cancel.isPending} onClick={() => cancel.mutate(undefined, { onError: fail })}>
              لغو درخواست
            </Button>
          )}
        </SectionCard>
      )}
    </Stack>
  )
}
