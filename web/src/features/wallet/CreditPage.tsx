import { Box, Button, HStack, Input, Separator, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { formatNumber, formatRial } from '../../lib/format'
import { useChargePackages, useOnePartPrices, usePaymentMethods, useSelectPackage, useStartPayment, useTodayGift } from './api'
import { OfflinePaymentTab, Row } from './OfflinePayment'
import { formatJalaliDateTime } from '../../lib/jalali'
import { formatToman, MIN_ONLINE_PAYMENT, ONLINE_TAX_PERCENT, PAYMENT_PRESETS, parseAmount, paymentSummary, smsFor, smsText } from './payment'

/**
 * /wallet/credit: charge the wallet. The online tab pays through the bank (any amount, a
 * charge package, with the today gift); card-to-card and bank transfers are reported with a
 * receipt and credited after review.
 */
export default function CreditPage() {
  const methods = usePaymentMethods()
  const enabled = (key: string) => methods.data?.find((m) => m.key === key)?.enabled ?? false
  return (
    <SectionCard title="افزایش اعتبار کیف پول" description="از درگاه بانکی پرداخت کنید یا واریز کارت به کارت و بانکی خود را ثبت کنید.">
      <Tabs.Root defaultValue="online" colorPalette="brand" variant="line" lazyMount unmountOnExit>
        <Tabs.List mb="5" overflowX="auto">
          <Tabs.Trigger value="online" data-testid="tab-online" whiteSpace="nowrap">
            پرداخت آنلاین
          </Tabs.Trigger>
          <Tabs.Trigger value="card" disabled={!enabled('card')} whiteSpace="nowrap" data-testid="tab-card">
            کارت به کارت
          </Tabs.Trigger>
          <Tabs.Trigger value="bank" disabled={!enabled('bank')} whiteSpace="nowrap" data-testid="tab-bank">
            واریز بانکی
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="online" pt="0">
          <Stack gap="6">
            <TodayGiftBanner />
            <ChargePackages />
            <OnlinePayment />
          </Stack>
        </Tabs.Content>
        <Tabs.Content value="card" pt="0">
          <OfflinePaymentTab method="card" />
        </Tabs.Content>
        <Tabs.Content value="bank" pt="0">
          <OfflinePaymentTab method="bank" />
        </Tabs.Content>
      </Tabs.Root>
    </SectionCard>
  )
}

function OnlinePayment() {
  const [text, setText] = useState('')
  const [touched, setTouched] = useState(false)
  const start = useStartPayment()
  const amount = parseAmount(text)
  const sum = paymentSummary(amount)
  const prices = useOnePartPrices()
  const buys = smsFor(amount, prices.data ?? [])
  const error = touched && amount === 0 ? 'مبلغ را وارد کنید' : sum.error
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (amount < MIN_ONLINE_PAYMENT) return
    start.mutate(amount, { onSuccess: (link) => window.location.assign(link.url) })
  }
  const busy = start.isPending || start.isSuccess
  return (
    <FormStack gap="5" onSubmit={submit} noValidate maxW="xl" data-testid="online-payment">
      <HStack gap="2" wrap="wrap" role="group" aria-label="مبلغ‌های پیشنهادی">
        {PAYMENT_PRESETS.map((p) => (
          <Button key={p} type="button" size="sm" variant={amount === p ? 'solid' : 'outline'} colorPalette="brand"
            onClick={() => setText(formatNumber(p))} data-testid={`preset-${p}`}>
            {formatRial(p)}
          </Button>
        ))}
      </HStack>
      <FormField label="مبلغ دلخواه (ریال)" error={error} helper={`حداقل مبلغ ${formatRial(MIN_ONLINE_PAYMENT)} (${formatToman(MIN_ONLINE_PAYMENT)})`} required>
        <Input inputMode="numeric" dir="ltr" textAlign="right" value={text} placeholder="۱٬۰۰۰٬۰۰۰"
          onChange={(e) => setText(amountText(e.target.value))} onBlur={() => setTouched(true)} data-testid="amount" />
      </FormField>
      <Box borderWidth="1px" borderColor="app.border" rounded="lg" p="4" data-testid="payment-summary">
        <Stack gap="2" fontSize="sm">
          <Row label="مبلغ شارژ" value={formatRial(sum.amount)} />
          <Row label="معادل به تومان (ریال ÷ ۱۰)" value={formatToman(sum.amount)} testId="amount-toman" />
          {buys && <Row label="با تعرفه شما" value={smsText(buys)} testId="amount-sms" />}
          <Row label={`مالیات بر ارزش افزوده (${formatNumber(ONLINE_TAX_PERCENT)}٪)`} value={formatRial(sum.tax)} testId="tax" />
          <Separator />
          <Row label="مبلغ قابل پرداخت" value={formatRial(sum.total)} strong testId="total" />
          <Text fontSize="xs" color="app.muted" textAlign="end" data-testid="total-toman">{formatToman(sum.total)}</Text>
        </Stack>
      </Box>
      {start.isError && <ServerMessage error={start.error} color="red.fg" fontSize="sm" data-testid="payment-error" />}
      <Button type="submit" colorPalette="brand" loading={busy} loadingText="در حال انتقال به درگاه" alignSelf={{ base: 'stretch', md: 'flex-start' }}
        minW="40" data-testid="pay">
        پرداخت
      </Button>
    </FormStack>
  )
}

/** The today-only gift, when one is live and this account has not received it. */
function TodayGiftBanner() {
  const { data } = useTodayGift()
  if (!data?.available || !data.amount) return null
  return (
    <Box borderWidth="1px" borderColor="green.emphasized" bg="green.subtle" rounded="lg" p="4" maxW="xl" data-testid="today-gift">
      <Text fontWeight="bold">{data.title || 'هدیه شارژ امروز'}</Text>
      <Text fontSize="sm" mt="1">
        با پرداخت آنلاین امروز، {formatRial(data.amount)} اعتبار هدیه می‌گیرید (یک بار برای هر حساب).
        {data.ends_at ? ` مهلت: ${formatJalaliDateTime(data.ends_at)}` : ''}
      </Text>
      {data.description && <Text fontSize="sm" color="app.muted" mt="1">{data.description}</Text>}
    </Box>
  )
}

/** Staff-configured charge packages: amount plus a bonus credit, paid online. */
function ChargePackages() {
  const { data, isPending, isError, refetch } = useChargePackages()
  const choose = useSelectPackage()
  if (isPending) return <Text fontSize="sm" color="app.muted">در حال بارگذاری بسته‌های شارژ</Text>
  if (isError) return <Button size="sm" variant="outline" alignSelf="flex-start" onClick={() => refetch()}>خطا در دریافت بسته‌ها؛ تلاش مجدد</Button>
  if (!Array.isArray(data) || !data.length) return null
  return (
    <Stack gap="3" data-testid="charge-packages">
      <Text fontWeight="bold">بسته‌های شارژ با اعتبار هدیه</Text>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
        {data.map((p) => (
          <Box key={p.id} borderWidth="1px" borderColor="app.border" rounded="lg" p="4" data-testid={`package-${p.id}`}>
            <Text fontWeight="bold">{p.title}</Text>
            {p.description && <Text fontSize="sm" color="app.muted">{p.description}</Text>}
            <Stack gap="1" fontSize="sm" mt="2">
              <Row label="شارژ" value={formatRial(p.amount)} />
              <Row label="هدیه" value={formatRial(p.bonus)} />
              <Row label="قابل پرداخت (با مالیات)" value={formatRial(p.total)} strong />
            </Stack>
            <Button mt="3" size="sm" w="full" colorPalette="brand" loading={choose.isPending && choose.variables === p.id}
              disabled={choose.isPending || choose.isSuccess} data-testid={`buy-package-${p.id}`}
              onClick={() => choose.mutate(p.id, { onSuccess: (link) => window.location.assign(link.url) })}>
              خرید بسته
            </Button>
          </Box>
        ))}
      </SimpleGrid>
      {choose.isError && <ServerMessage error={choose.error} color="red.fg" fontSize="sm" />}
    </Stack>
  )
}

/** The typed amount shown grouped in Persian digits. */
function amountText(raw: string): string {
  const n = parseAmount(raw)
  return n ? formatNumber(n) : ''
}
