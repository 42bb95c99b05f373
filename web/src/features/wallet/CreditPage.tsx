import { Box, Button, Flex, HStack, Input, Separator, Stack, Tabs, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { formatNumber, formatRial } from '../../lib/format'
import { useStartPayment } from './api'
import { MIN_ONLINE_PAYMENT, ONLINE_TAX_PERCENT, PAYMENT_PRESETS, parseAmount, paymentSummary } from './payment'

/** /wallet/credit: charge the wallet. The online tab pays through the bank; the offline tabs come later. */
export default function CreditPage() {
  return (
    <SectionCard title="افزایش اعتبار کیف پول" description="مبلغ دلخواه را انتخاب کنید و از درگاه بانکی پرداخت کنید.">
      <Tabs.Root defaultValue="online" colorPalette="brand" variant="line">
        <Tabs.List mb="5" overflowX="auto">
          <Tabs.Trigger value="online" data-testid="tab-online" whiteSpace="nowrap">
            پرداخت آنلاین
          </Tabs.Trigger>
          <Tabs.Trigger value="card" disabled whiteSpace="nowrap" title="به‌زودی فعال می‌شود">
            کارت به کارت
          </Tabs.Trigger>
          <Tabs.Trigger value="bank" disabled whiteSpace="nowrap" title="به‌زودی فعال می‌شود">
            واریز بانکی
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="online" pt="0">
          <OnlinePayment />
        </Tabs.Content>
      </Tabs.Root>
      <Text fontSize="xs" color="app.muted" mt="4">
        پرداخت کارت به کارت و واریز بانکی به‌زودی فعال می‌شود.
      </Text>
    </SectionCard>
  )
}

function OnlinePayment() {
  const [text, setText] = useState('')
  const [touched, setTouched] = useState(false)
  const start = useStartPayment()
  const amount = parseAmount(text)
  const sum = paymentSummary(amount)
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
      <FormField label="مبلغ دلخواه (ریال)" error={error} helper={`حداقل مبلغ ${formatRial(MIN_ONLINE_PAYMENT)}`} required>
        <Input inputMode="numeric" dir="ltr" textAlign="right" value={text} placeholder="۱٬۰۰۰٬۰۰۰"
          onChange={(e) => setText(amountText(e.target.value))} onBlur={() => setTouched(true)} data-testid="amount" />
      </FormField>
      <Box borderWidth="1px" borderColor="app.border" rounded="lg" p="4" data-testid="payment-summary">
        <Stack gap="2" fontSize="sm">
          <Row label="مبلغ شارژ" value={formatRial(sum.amount)} />
          <Row label={`مالیات بر ارزش افزوده (${formatNumber(ONLINE_TAX_PERCENT)}٪)`} value={formatRial(sum.tax)} testId="tax" />
          <Separator />
          <Row label="مبلغ قابل پرداخت" value={formatRial(sum.total)} strong testId="total" />
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

/** The typed amount shown grouped in Persian digits. */
function amountText(raw: string): string {
  const n = parseAmount(raw)
  return n ? formatNumber(n) : ''
}

function Row({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <Flex justify="space-between" gap="3" fontWeight={strong ? 'bold' : undefined}>
      <Text color={strong ? undefined : 'app.muted'}>{label}</Text>
      <Text data-testid={testId}>{value}</Text>
    </Flex>
  )
}
