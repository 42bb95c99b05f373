import { Button, Checkbox, Input, NativeSelect, Skeleton, Stack, Switch, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { FormField } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, StaleNote } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { onlyDigits, toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { toaster } from '../../lib/toaster'
import { SendHoursCard } from './SendHoursCard'
import {
  useLowBalance, useSaveLowBalance, useSaveSettings, useSenderLines, useSetDefaultLine, useSettings, useSaveTicketNotice, useTicketNotice, type Settings,
} from './api'

const fail = (err: unknown) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) })

function LowBalanceCard() {
  const lb = useLowBalance()
  const save = useSaveLowBalance()
  const [on, setOn] = useState(false)
  const [amount, setAmount] = useState('')
  useEffect(() => {
    if (lb.data) {
      setOn(lb.data.enabled)
      setAmount(String(lb.data.enabled ? lb.data.threshold : lb.data.minimum))
    }
  }, [lb.data])
  if (isApiError(lb.error, 403)) return null
  return (
    <SectionCard title="هشدار کمبود اعتبار" description="وقتی اعتبار از این مبلغ کمتر شود، به شماره مالک حساب پیامک می‌شود.">
      {lb.isError && lb.data && <StaleNote />}
      {lb.isPending ? <Skeleton h="20" /> : !lb.data ? <ErrorState description={errorText(lb.error)} onRetry={() => lb.refetch()} /> : (
        <Stack gap="3" maxW="md">
          <Switch.Root checked={on} onCheckedChange={(e) => setOn(e.checked)} data-testid="settings-lowbalance-on">
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>هشدار فعال باشد</Switch.Label>
          </Switch.Root>
          <FormField label="حداقل اعتبار (ریال)" helper={`حداقل ${formatRial(lb.data.minimum)}`}
            error={isApiError(save.error) ? save.error.fieldError('threshold') : undefined}>
            <Input disabled={!on} inputMode="numeric" dir="ltr" textAlign="right" value={toPersianDigits(amount)}
              onChange={(e) => setAmount(onlyDigits(e.target.value))} data-testid="settings-lowbalance" />
          </FormField>
          <Button alignSelf="flex-start" colorPalette="brand" loading={save.isPending}
            onClick={() => save.mutate({ enabled: on, threshold: Number(amount) || 0 }, { onSuccess: () => toaster.create({ type: 'success', description: 'هشدار ذخیره شد' }), onError: fail })}>
            ذخیره هشدار
          </Button>
        </Stack>
      )}
    </SectionCard>
  )
}

function DefaultLineCard() {
  const lines = useSenderLines()
  const set = useSetDefaultLine()
  if (isApiError(lines.error, 403)) return null
  const current = lines.data?.find((l) => l.is_default)?.id ?? ''
  return (
    <SectionCard title="خط پیش‌فرض" description="ارسال‌ها بدون انتخاب خط، از این خط فرستاده می‌شوند.">
      {lines.isError && lines.data && <StaleNote />}
      {lines.isPending ? <Skeleton h="10" /> : !lines.data ? <ErrorState description={errorText(lines.error)} onRetry={() => lines.refetch()} /> :
        lines.data.length === 0 ? <Text color="app.muted">هنوز خطی برای حساب شما ثبت نشده است.</Text> : (
          <NativeSelect.Root maxW="xs">
            <NativeSelect.Field value={String(current)} data-testid="settings-default-line"
              onChange={(e) => set.mutate(e.target.value, { onSuccess: () => toaster.create({ type: 'success', description: 'خط پیش‌فرض ذخیره شد' }), onError: fail })}>
              {lines.data.map((l) => <option key={l.id} value={String(l.id)}>{toPersianDigits(l.number)}{l.kind === 'advertising' ? ' (تبلیغاتی)' : ' (خدماتی)'}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        )}
    </SectionCard>
  )
}

function PreferencesCard() {
  const st = useSettings()
  const save = useSaveSettings()
  const [v, setV] = useState<Settings | null>(null)
  useEffect(() => { if (st.data) setV(st.data) }, [st.data])
  if (st.isPending || !v) return st.isError ? <ErrorState description={errorText(st.error)} onRetry={() => st.refetch()} /> : <Skeleton h="40" rounded="card" />
  return (
    <SectionCard title="فرم‌های ارسال" description="روی خط تبلیغاتی «لغو۱۱» همیشه افزوده می‌شود؛ این انتخاب حالت آغازین آن روی خط خدماتی است.">
      <Stack gap="3">
        <Checkbox.Root checked={v.cancel11_default} onCheckedChange={(e) => setV({ ...v, cancel11_default: e.checked === true })} data-testid="settings-cancel11">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>«لغو۱۱» در فرم‌های ارسال با خط خدماتی به‌طور پیش‌فرض روشن باشد</Checkbox.Label>
        </Checkbox.Root>
        <Button alignSelf="flex-start" colorPalette="brand" loading={save.isPending} data-testid="settings-save"
          onClick={() => save.mutate(v, { onSuccess: () => toaster.create({ type: 'success', description: 'تنظیمات ذخیره شد' }), onError: fail })}>
          ذخیره تنظیمات
        </Button>
      </Stack>
    </SectionCard>
  )
}

function NoticesCard() {
  const q = useTicketNotice()
  const save = useSaveTicketNotice()
  if (isApiError(q.error, 403)) return null
  return (
    <SectionCard title="اعلان‌های پیامکی" description="هشدار کمبود اعتبار در بخش بالا تنظیم می‌شود.">
      {q.isError && q.data && <StaleNote />}
      {q.isPending ? <Skeleton h="10" /> : !q.data ? <ErrorState description={errorText(q.error)} onRetry={() => q.refetch()} /> : (
        <Switch.Root checked={q.data.sms_on_answer} disabled={save.isPending} data-testid="settings-ticket-sms"
          onCheckedChange={(e) => save.mutate({ sms_on_answer: e.checked }, {
            onSuccess: () => toaster.create({ type: 'success', description: 'تنظیمات ذخیره شد' }), onError: fail,
          })}>
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>پیامک به شماره مالک حساب وقتی پشتیبانی به تیکت یا پیشنهاد پاسخ می‌دهد</Switch.Label>
        </Switch.Root>
      )}
    </SectionCard>
  )
}

/** /settings and /profile/settings: the account's settings. */
export default function SettingsPage() {
  return (
    <Stack gap="4">
      <LowBalanceCard />
      <DefaultLineCard />
      <SendHoursCard />
      <PreferencesCard />
      <NoticesCard />
    </Stack>
  )
}
