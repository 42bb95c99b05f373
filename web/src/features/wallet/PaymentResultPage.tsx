import { Button, Center, HStack, Heading, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { queryKeys } from '../../lib/queryKeys'
import { useOnlinePayment, type OnlinePayment } from './api'
import { InvoiceButton } from './InvoiceButton'
import { PAYMENT_MESSAGES } from './payment'

/** /wallet/payment-result: where the bank's callback sends the payer (?id=&status=&amount=). */
export default function PaymentResultPage() {
  const [params] = useSearchParams()
  const id = params.get('id') ?? ''
  const qc = useQueryClient()
  const payment = useOnlinePayment(id)
  const state = payment.data?.state
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.credit })
  }, [qc, state])
  if (!/^\d+$/.test(id)) return <Result state="failed" />
  if (payment.isPending) return <LoadingState data-testid="payment-loading" />
  // A failed check of a payment already shown keeps it on screen, with a note.
  if (!payment.data) return <ErrorState onRetry={() => void payment.refetch()} />
  return <Result state={payment.data.state} payment={payment.data} stale={payment.isError} />
}

const LOOKS = {
  paid: { title: 'پرداخت موفق', color: 'green', mark: '✓' },
  failed: { title: 'پرداخت ناموفق', color: 'red', mark: '✕' },
  expired: { title: 'پرداخت ناموفق', color: 'red', mark: '✕' },
  pending: { title: 'در انتظار نتیجه پرداخت', color: 'orange', mark: '…' },
} as const

function Result({ state, payment, stale }: { state: OnlinePayment['state']; payment?: OnlinePayment; stale?: boolean }) {
  const look = LOOKS[state]
  return (
    <SectionCard py={{ base: '10', md: '16' }} data-testid="payment-result" data-state={state}>
      <Center>
        <Stack align="center" gap="4" textAlign="center" maxW="md">
          <Center boxSize="20" rounded="full" bg={`${look.color}.subtle`} color={`${look.color}.fg`} fontSize="3xl" aria-hidden>
            {look.mark}
          </Center>
          <Heading size="lg">{look.title}</Heading>
          {stale && <StaleNote />}
          <Text color="app.muted" data-testid="payment-message">
            {payment?.message || PAYMENT_MESSAGES[state]}
          </Text>
          {payment && <Details payment={payment} />}
          <HStack gap="3" wrap="wrap" justify="center">
            <Button asChild colorPalette="brand" data-testid="goto-transactions">
              <RouterLink to="/wallet/transactions">مشاهده تراکنش‌ها</RouterLink>
            </Button>
            {state === 'paid' && payment && (
              <InvoiceButton paymentId={payment.id} size="md">
                دریافت فاکتور
              </InvoiceButton>
            )}
            <Button asChild variant="outline">
              <RouterLink to="/wallet/credit">{state === 'paid' ? 'شارژ دوباره' : 'تلاش دوباره'}</RouterLink>
            </Button>
          </HStack>
        </Stack>
      </Center>
    </SectionCard>
  )
}

function Details({ payment }: { payment: OnlinePayment }) {
  return (
    <Stack gap="1" fontSize="sm">
      {payment.state === 'paid' && <Text data-testid="credited">مبلغ شارژشده: {formatRial(payment.amount)}</Text>}
      <Text>مبلغ پرداختی (با مالیات): {formatRial(payment.total)}</Text>
      <Text>
        شماره پرداخت: <bdi>{toPersianDigits(payment.id)}</bdi>
      </Text>
      {payment.bank_ref && (
        <Text>
          کد پیگیری بانک: <bdi>{toPersianDigits(payment.bank_ref)}</bdi>
        </Text>
      )}
      {payment.refund_state === 'returned' && <Text color="app.muted">مبلغ کسرشده به حساب شما بازگردانده شد.</Text>}
    </Stack>
  )
}
