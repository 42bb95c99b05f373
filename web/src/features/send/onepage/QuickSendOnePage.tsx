import { Alert, Box, Button, Grid, Link, Separator, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { Link as RouterLink, useSearchParams } from 'react-router'
import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { useDebouncedValue } from '../../../components/hooks'
import { SendIcon } from '../../../components/outlineIcons'
import { SectionCard } from '../../../components/SectionCard'
import { SenderPicker } from '../../../components/SenderPicker'
import { ServerMessage } from '../../../components/ServerMessage'
import { formatNumber, formatRial } from '../../../lib/format'
import { toPersianDigits } from '../../../lib/digits'
import { PASTE_LIMIT } from '../../../lib/paste'
import { uuid } from '../../../lib/uuid'
import { sendApi, type PriceBody } from '../api'
import { EMPTY_DRAFT, sendBody, stepErrors, withSender, type QuickDraft } from '../quick/draft'
import { HoldDialog } from '../wizard/HoldDialog'
import { PriceQuoteCard } from '../wizard/PriceQuoteCard'
import { scheduleText } from '../wizard/review'
import { useDefaultSender } from '../wizard/sender'
import { TestSendButton, testBodyOf } from '../wizard/TestSendButton'
import { useSubmitSend } from '../wizard/useSubmitSend'
import { MessageStep } from '../wizard/WizardSteps'
import { LeaveGuard } from '../drafts/LeaveGuard'
import { NumbersBox } from './NumbersBox'
import { numbersError, parseNumbers } from './numbers'

/** How long the typing settles before the price is asked again. */
const QUOTE_DEBOUNCE_MS = 500

/**
 * /send-sms/quick: numbers, text, line and send on one page, the price live beside
 * them; the send is confirmed, and one refused outside the sending hours may be held
 * until they open. The three-step wizard stays at /send-sms/quick/steps.
 */
const LEAVE_NOTE = 'شماره‌ها و متن این ارسال هنوز فرستاده نشده‌اند و با خروج از این صفحه پاک می‌شوند.'

export default function QuickSendOnePage() {
  const [draft, setDraft] = useState<QuickDraft>(EMPTY_DRAFT)
  // ?to= starts with that number (the dashboard's «ارسال آزمایشی» first step).
  const [params] = useSearchParams()
  const [raw, setRaw] = useState(() => {
    const to = params.get('to') ?? ''
    return /^0?9\d{9}$/.test(to) ? to : ''
  })
  const [showErrors, setShowErrors] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [idempotencyKey, setIdempotencyKey] = useState('')
  const parsed = useMemo(() => parseNumbers(raw), [raw])
  const full: QuickDraft = { ...draft, numbers: parsed.valid }
  const patch = (p: Partial<QuickDraft>) => setDraft((d) => ({ ...d, ...p }))
  const cancel11Default = useDefaultSender(draft.sender, (line, c11) => setDraft((d) => withSender(d, line, c11)))
  const errors = { ...stepErrors(0, full), ...stepErrors(1, full) }
  const tooMany = numbersError(parsed)
  if (tooMany) errors.numbers = tooMany
  const quote = useLiveQuote(full)
  const scheduled = full.schedule === 'later'
  // Set once the send is accepted: moving on to its result page is not «leaving».
  const sent = useRef(false)
  const { send, holdUntil, clearHold } = useSubmitSend({
    sendBody: () => sendBody(full), scheduled, idempotencyKey, onAccepted: () => { sent.current = true },
  })
  const holdsWork = raw.trim() !== '' || draft.text.trim() !== ''

  const ask = () => {
    if (Object.keys(errors).length) return setShowErrors(true)
    setShowErrors(false)
    setIdempotencyKey(uuid()) // one key per confirmation: a retried POST /send returns the first send
    send.reset()
    setConfirming(true)
  }
  const shown = showErrors ? errors : {}
  return (
    <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 1fr) 380px' }} gap="5" alignItems="start" data-testid="quick-page">
      <LeaveGuard when={holdsWork} passRef={sent} flush={async () => {}} note={LEAVE_NOTE} />
      <SectionCard title="ارسال سریع" description="شماره‌ها، متن و خط ارسال را در همین صفحه وارد کنید.">
        <Stack gap="6">
          <SenderPicker value={draft.sender} onChange={(l) => setDraft((d) => withSender(d, l, cancel11Default))} error={shown.sender} />
          <Separator />
          <NumbersBox value={raw} onChange={setRaw} parsed={parsed} error={shown.numbers ?? (parsed.valid.length > PASTE_LIMIT ? tooMany : undefined)} />
          <Separator />
          <MessageStep draft={draft} errors={shown} onChange={patch} />
        </Stack>
      </SectionCard>
      <Box position={{ lg: 'sticky' }} top={{ lg: '4' }}>
        <SectionCard title="هزینه و ارسال" p="4">
          <Stack gap="4">
            {quote.enabled ? (
              <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} />
            ) : (
              <Text fontSize="sm" color="app.muted" data-testid="quote-hint">
                شماره‌ها و متن پیامک را وارد کنید تا هزینه محاسبه شود.
              </Text>
            )}
            <Separator />
            <TestSendButton body={testBodyOf(sendBody(full))} />
            <Button colorPalette="brand" size="lg" onClick={ask} loading={send.isPending} data-testid="quick-send">
              <SendIcon transform="scaleX(-1)" /> {scheduled ? 'ثبت ارسال زمان‌بندی‌شده' : 'ارسال پیامک'}
            </Button>
            {showErrors && Object.keys(errors).length > 0 && (
              <Text fontSize="sm" color="fg.error" role="alert">
                موارد مشخص‌شده را کامل کنید.
              </Text>
            )}
            <Link asChild fontSize="sm" color="brand.fg" alignSelf="center">
              <RouterLink to="/send-sms/quick/steps" data-testid="quick-wizard-link">
                ارسال سریع مرحله‌ای (با پیش‌نویس)
              </RouterLink>
            </Link>
          </Stack>
        </SectionCard>
      </Box>
      <ConfirmDialog
        open={confirming && !holdUntil}
        onClose={() => setConfirming(false)}
        title={scheduled ? 'ثبت ارسال زمان‌بندی‌شده' : 'تأیید ارسال'}
        confirmLabel={scheduled ? 'ثبت ارسال' : 'ارسال'}
        colorPalette="brand"
        onConfirm={() => send.mutate(false)}
        loading={send.isPending}
        error={send.isError && !holdUntil ? send.error : undefined}
        testId="quick-confirm"
      >
        <ConfirmText draft={full} price={quote.data?.price} recipients={quote.data?.recipients ?? full.numbers.length} />
      </ConfirmDialog>
      <HoldDialog next={holdUntil} onClose={clearHold} onHold={() => send.mutate(true)} loading={send.isPending} />
      {send.isError && !confirming && !holdUntil && (
        <Alert.Root status="error" rounded="lg" gridColumn="1 / -1">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>ارسال ثبت نشد</Alert.Title>
            <Alert.Description>
              <ServerMessage error={send.error} />
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Grid>
  )
}

/** The price of the page's send, asked again once the typing settles. */
function useLiveQuote(d: QuickDraft) {
  // Debounced as a string: a fresh object each render would never settle.
  const settled = useDebouncedValue(JSON.stringify({ text: d.text, numbers: d.numbers, cancel11: d.cancel11, sender: d.sender }), QUOTE_DEBOUNCE_MS)
  const body = useMemo(() => JSON.parse(settled) as PriceBody, [settled])
  const enabled = !!body.sender && body.numbers.length > 0 && !!body.text.trim()
  const q = useQuery({
    queryKey: ['send', 'price', body],
    queryFn: () => sendApi.calculatePrice(body),
    enabled,
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  })
  return { ...q, enabled, refetch: q.refetch }
}

/** What the confirmation says: recipients, line, time and price. */
function ConfirmText({ draft, price, recipients }: { draft: QuickDraft; price?: number; recipients: number }) {
  return (
    <Stack gap="1" fontSize="sm" data-testid="quick-confirm-text">
      <Text>{`پیامک به ${formatNumber(recipients)} گیرنده از خط ${toPersianDigits(draft.sender)} فرستاده می‌شود.`}</Text>
      <Text>{`زمان ارسال: ${scheduleText(draft)}`}</Text>
      {price !== undefined && <Text fontWeight="bold">{`هزینه: ${formatRial(price)}`}</Text>}
    </Stack>
  )
}
