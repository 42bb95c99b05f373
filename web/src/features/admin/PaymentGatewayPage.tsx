import { Badge, Button, HStack, Heading, Input, Stack, Text } from '@chakra-ui/react'
import { useEffect, useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState, LoadingState } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { paymentGatewayApi, useAdminMutation, usePaymentGateway, type PaymentGatewayChange } from './api'

const EMPTY: PaymentGatewayChange = { active: '', zarinpal_merchant_id: '', sep_terminal_id: '' }

/**
 * The help under each id field: the stored value is shown masked (isolated left to right,
 * so «••••1234» keeps its order in the Persian line); an empty field keeps it.
 */
function storedHelp(masked: string, format: string) {
  return masked ? `ثبت‌شده: \u2066${masked}\u2069 — برای تغییر، مقدار تازه را وارد کنید؛ خالی بماند، همان می‌ماند.` : format
}

/**
 * /admin/payment-gateway: the online gateway customers' wallet top-ups go to
 * (sandbox bank, Zarinpal or SEP) and the merchant / terminal ids, which the API
 * answers masked only.
 */
export default function PaymentGatewayPage() {
  const { data, isPending, isError, refetch } = usePaymentGateway()
  const [form, setForm] = useState<PaymentGatewayChange>(EMPTY)
  const save = useAdminMutation(() => paymentGatewayApi.save({ ...form, sep_terminal_id: toLatinDigits(form.sep_terminal_id) }))
  useEffect(() => {
    if (data) setForm({ ...EMPTY, active: data.active })
  }, [data])
  useEffect(() => {
    if (save.isSuccess) setForm((f) => ({ ...f, zarinpal_merchant_id: '', sep_terminal_id: '' }))
  }, [save.isSuccess])
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  const set = (k: keyof PaymentGatewayChange, v: string) => setForm((f) => ({ ...f, [k]: v }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(undefined)
  }
  return (
    <Stack gap="4" maxW="3xl">
      <Heading size="lg">درگاه پرداخت آنلاین</Heading>
      <Text color="app.muted" fontSize="sm">
        شارژ آنلاین کیف پول مشتریان از این پس به درگاه انتخاب‌شده می‌رود؛ پرداخت‌های در جریان با درگاه خود تمام می‌شوند. مرچنت کد و شماره
        ترمینال محرمانه‌اند: رمزنگاری‌شده نگهداری و فقط با چهار نویسه آخر نمایش داده می‌شوند و هر تغییر در گزارش رویدادها ثبت می‌شود.
      </Text>
      {isError ? (
        <ErrorState onRetry={() => refetch()} />
      ) : isPending || !data ? (
        <LoadingState />
      ) : (
        <SectionCard>
          <FormStack gap="5" onSubmit={submit} noValidate data-testid="gateway-form">
            <FormField label="درگاه فعال" error={err('active')} required>
              <Stack gap="2" role="radiogroup" aria-label="درگاه فعال" data-testid="gateway-active">
                {data.gateways.map((g) => (
                  <Button key={g.name} role="radio" aria-checked={form.active === g.name} variant={form.active === g.name ? 'subtle' : 'outline'}
                    colorPalette={form.active === g.name ? 'brand' : 'gray'} justifyContent="flex-start" onClick={() => set('active', g.name)}
                    data-testid={`gateway-${g.name}`}>
                    <HStack gap="2">
                      <span>{g.title}</span>
                      {data.active === g.name && <Badge colorPalette="green">فعال</Badge>}
                      {!g.ready && <Badge colorPalette="gray">شناسه ثبت نشده</Badge>}
                    </HStack>
                  </Button>
                ))}
              </Stack>
            </FormField>
            <FormField label="مرچنت کد زرین‌پال" error={err('zarinpal_merchant_id')}
              helper={storedHelp(data.zarinpal_merchant_id, '۳۶ نویسه، مانند xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx')}>
              <Input value={form.zarinpal_merchant_id} dir="ltr" textAlign="right" autoComplete="off" spellCheck={false}
                placeholder={data.zarinpal_merchant_id || undefined} onChange={(e) => set('zarinpal_merchant_id', e.target.value)}
                data-testid="gateway-zarinpal-id" />
            </FormField>
            <FormField label="شماره ترمینال سامان (سپ)" error={err('sep_terminal_id')}
              helper={storedHelp(data.sep_terminal_id, '۶ تا ۱۲ رقم')}>
              <Input value={toPersianDigits(form.sep_terminal_id)} dir="ltr" textAlign="right" inputMode="numeric" autoComplete="off"
                placeholder={data.sep_terminal_id || undefined} onChange={(e) => set('sep_terminal_id', e.target.value)}
                data-testid="gateway-sep-id" />
            </FormField>
            {save.isError && !(save.error instanceof ApiError && Object.keys(save.error.errors).length > 0) && <ServerMessage error={save.error} color="fg.error" fontSize="sm" data-testid="gateway-error" />}
            {save.isSuccess && <Text color="green.fg" fontSize="sm" data-testid="gateway-saved">تنظیمات درگاه پرداخت ذخیره شد.</Text>}
            <Button type="submit" colorPalette="brand" alignSelf={{ base: 'stretch', md: 'flex-start' }} loading={save.isPending}
              data-testid="gateway-save">
              ذخیره
            </Button>
          </FormStack>
        </SectionCard>
      )}
    </Stack>
  )
}
