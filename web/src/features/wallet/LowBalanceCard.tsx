import { Button, Checkbox, Input, InputGroup, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, StaleNote } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { useCredit } from '../../lib/credit'
import { formatRial } from '../../lib/format'
import { toaster } from '../../lib/toaster'
import { useLowBalance, useSaveLowBalance } from './api'
import { formatTyped, MIN_ALERT_THRESHOLD, parseRials, thresholdError } from './lowBalance'

/**
 * The owner's low-balance alert (spec §9, minimum 200,000 rials): one SMS and a notice in
 * the panel when the credit falls below the threshold, again only after a recharge above
 * it. Colleagues (403) do not see the card.
 */
export function LowBalanceCard() {
  const setting = useLowBalance()
  // The live credit (credit.changed keeps it current), not the balance read with the setting.
  const credit = useCredit().data ?? setting.data?.balance ?? 0
  const save = useSaveLowBalance()
  const [enabled, setEnabled] = useState(false)
  const [text, setText] = useState('')
  const [touched, setTouched] = useState(false)
  useEffect(() => {
    if (!setting.data) return
    setEnabled(setting.data.enabled)
    setText(formatTyped(String(setting.data.enabled ? setting.data.threshold : MIN_ALERT_THRESHOLD)))
  }, [setting.data])
  if (isApiError(setting.error, 403)) return null
  const clientError = touched ? thresholdError(enabled, text) : null
  const serverError = isApiError(save.error) ? (save.error.fieldError('threshold') ?? null) : null
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (thresholdError(enabled, text)) return
    save.mutate(
      { enabled, threshold: enabled ? parseRials(text) : 0 },
      {
        onSuccess: () => toaster.create({ type: 'success', description: enabled ? 'هشدار کمبود اعتبار ذخیره شد' : 'هشدار کمبود اعتبار خاموش شد' }),
        onError: (err) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) }),
      },
    )
  }
  return (
    <SectionCard
      title="هشدار کمبود اعتبار"
      description="وقتی اعتبار حساب از این مبلغ کمتر شود، یک پیامک به شماره موبایل مالک حساب فرستاده و در پنل اعلان نمایش داده می‌شود؛ هشدار بعدی پس از شارژ حساب به بالاتر از این مبلغ."
      data-testid="low-balance-card"
    >
      {setting.isError && setting.data && <StaleNote />}
      {setting.isPending ? (
        <Skeleton h="24" rounded="md" />
      ) : !setting.data ? (
        <ErrorState description={errorText(setting.error)} onRetry={() => setting.refetch()} />
      ) : (
        <FormStack gap="4" onSubmit={submit} noValidate maxW="md">
          <Checkbox.Root checked={enabled} onCheckedChange={(e) => setEnabled(e.checked === true)} colorPalette="brand" data-testid="low-balance-enabled">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>هشدار کمبود اعتبار فعال باشد</Checkbox.Label>
          </Checkbox.Root>
          <FormField label="حداقل اعتبار" error={clientError ?? serverError} helper={`حداقل ${formatRial(MIN_ALERT_THRESHOLD)}`} required={enabled}>
            <InputGroup endElement={<Text fontSize="sm" color="fg.muted">ریال</Text>}>
              <Input
                inputMode="numeric"
                dir="ltr"
                textAlign="right"
                disabled={!enabled}
                value={text}
                onChange={(e) => setText(formatTyped(e.target.value))}
                onBlur={() => setTouched(true)}
                aria-label="حداقل اعتبار (ریال)"
                data-testid="low-balance-threshold"
              />
            </InputGroup>
          </FormField>
          {setting.data && (
            <Stack gap="1">
              <Text fontSize="sm" color="fg.muted">
                اعتبار فعلی: {formatRial(credit)}
              </Text>
              {setting.data.enabled && credit < setting.data.threshold && (
                <Text fontSize="sm" color="orange.fg">
                  اعتبار شما هم‌اکنون کمتر از این مبلغ است؛ هشدار بعدی پس از شارژ حساب فرستاده می‌شود.
                </Text>
              )}
            </Stack>
          )}
          <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={save.isPending} data-testid="low-balance-save">
            ذخیره
          </Button>
        </FormStack>
      )}
    </SectionCard>
  )
}
