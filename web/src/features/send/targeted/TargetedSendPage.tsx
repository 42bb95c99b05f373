import { Button, Grid, HStack, Input, Separator, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { FormField } from '../../../components/FormField'
import { SectionCard } from '../../../components/SectionCard'
import { SenderPicker } from '../../../components/SenderPicker'
import { toLatinDigits, toPersianDigits } from '../../../lib/digits'
import { formatNumber } from '../../../lib/format'
import type { SenderLine } from '../../../lib/lines'
import { bankApi, type BankCounts, type PriceQuote, type TargetedKind } from '../api'
import { PriceQuoteCard } from '../wizard/PriceQuoteCard'
import { MessagePreview, ReviewRow, gradualText, scheduleText } from '../wizard/review'
import { isGradual } from '../../../lib/gradual'
import { useDefaultSender, withSender } from '../wizard/sender'
import { SendWizard } from '../wizard/SendWizard'
import { MessageStep } from '../wizard/WizardSteps'
import { useResumeDraft } from '../drafts/useDraft'
import { AudiencePicker, Narrowing } from './Audience'
import { CountsCard } from './CountsCard'
import {
  EMPTY_TARGETED,
  hasAudience,
  resumed,
  TARGETED_METHODS,
  TARGETED_STEPS,
  targetedBody,
  targetedStepErrors,
  targetOf,
  type TargetedDraft,
  type TargetedErrors,
} from './model'

/** The audience as last settled: the map reports every move, the count follows after a pause. */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value)
  const key = JSON.stringify(value)
  useEffect(() => {
    const id = window.setTimeout(() => setSettled(JSON.parse(key) as T), ms)
    return () => window.clearTimeout(id)
  }, [key, ms])
  return settled
}

/** POST /send/banks/counts for the audience, cached per filter (server side too). */
function useBankCounts(kind: TargetedKind, d: TargetedDraft) {
  const body = useSettled({ type: kind, target: targetOf(d), text: d.text, cancel11: d.cancel11 })
  return useQuery({
    queryKey: ['bank', 'counts', body],
    queryFn: () => bankApi.counts(body),
    enabled: hasAudience(kind, body.target),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  })
}

/**
 * /send-sms/city-province, /business, /postalcode, /map and /tower-irancell: one text to an
 * audience of the platform's number bank, chosen by place, business, postal code, a map shape or
 * Irancell towers, all of it or a random count; the numbers are never shown (docs/targeted-sends.md).
 */
export default function TargetedSendPage({ kind }: { kind: TargetedKind }) {
  const [draft, setDraft] = useState<TargetedDraft>(EMPTY_TARGETED)
  const patch = (p: Partial<TargetedDraft>) => setDraft((d) => ({ ...d, ...p }))
  const cancel11Default = useDefaultSender(draft.sender, (line, c11) => setDraft((d) => withSender(d, line, c11)))
  const chooseSender = (line: SenderLine) => setDraft((d) => withSender(d, line, cancel11Default))
  const counts = useBankCounts(kind, draft)
  const resume = useResumeDraft((state) => setDraft((d) => resumed(d, state)))
  return (
    <SendWizard
      steps={TARGETED_STEPS}
      testId={`targeted-${kind}`}
      stepErrors={(step) => targetedStepErrors(kind, step, draft, counts.data)}
      priceBody={targetedBody(kind, draft)}
      sendBody={() => targetedBody(kind, draft)}
      scheduled={draft.schedule === 'later'}
      onSendAt={(sendAt) => patch({ sendAt })}
      draft={{ type: kind, state: { ...draft, target: targetOf(draft) }, resume }}
    >
      {({ step, errors, quote }) =>
        step === 0 ? (
          <AudienceStep kind={kind} draft={draft} errors={errors} counts={counts} onChange={patch} onSender={chooseSender} />
        ) : step === 1 ? (
          <MessageStep draft={draft} errors={errors} onChange={patch} />
        ) : (
          <TargetedReview kind={kind} draft={draft} quote={quote} counts={counts.data} />
        )
      }
    </SendWizard>
  )
}

interface StepProps {
  kind: TargetedKind
  draft: TargetedDraft
  errors: TargetedErrors
  counts: UseQueryResult<BankCounts>
  onChange: (p: Partial<TargetedDraft>) => void
  onSender: (line: SenderLine) => void
}

/** Step 1: the line, the audience with its live count, the narrowing and all or a random count. */
function AudienceStep({ kind, draft, errors, counts, onChange, onSender }: StepProps) {
  const setTarget = (target: TargetedDraft['target']) => onChange({ target })
  return (
    <Stack gap="6">
      <SenderPicker value={draft.sender} onChange={onSender} error={errors.sender} />
      <Separator />
      <AudiencePicker kind={kind} target={draft.target} onChange={setTarget} error={errors.target} />
      <Narrowing kind={kind} target={draft.target} onChange={setTarget} />
      <FormField label="تعداد گیرندگان" error={errors.count}>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" colorPalette="brand" variant={draft.pick === 'all' ? 'solid' : 'outline'} onClick={() => onChange({ pick: 'all' })} data-testid="pick-all">
            همه شماره‌های محدوده
          </Button>
          <Button size="sm" colorPalette="brand" variant={draft.pick === 'count' ? 'solid' : 'outline'} onClick={() => onChange({ pick: 'count' })} data-testid="pick-count">
            تعداد تصادفی
          </Button>
          {draft.pick === 'count' && (
            <Input
              w="40"
              inputMode="numeric"
              placeholder="مثلا ۱۰٬۰۰۰"
              value={draft.target.count ? toPersianDigits(String(draft.target.count)) : ''}
              onChange={(e) => setTarget({ ...draft.target, count: Number(toLatinDigits(e.target.value).replace(/\D/g, '')) || undefined })}
              data-testid="pick-count-input"
            />
          )}
        </HStack>
      </FormField>
      <SectionCard title="تعداد و هزینه" p="4" shadow="none">
        <CountsCard counts={counts} idle={!hasAudience(kind, draft.target)} />
      </SectionCard>
    </Stack>
  )
}

/** What the audience is, in words, for the review. */
function audienceText(kind: TargetedKind, d: TargetedDraft): string {
  const t = d.target
  const n = (xs?: unknown[]) => formatNumber(xs?.length ?? 0)
  switch (kind) {
    case 'city_province':
      return `${n(t.provinces)} استان، ${n(t.counties)} شهرستان، ${n(t.cities)} شهر`
    case 'business':
      return `${n(t.categories)} صنف، ${n(t.subcategories)} زیرصنف`
    case 'postal_code':
      return toPersianDigits((t.postal_codes ?? []).join('، '))
    case 'map':
      return t.circle ? `دایره به شعاع ${formatNumber(Math.round(t.circle.radius))} متر` : `چندضلعی با ${n(t.polygon)} رأس`
    case 'tower_irancell':
      return `${n(t.towers)} دکل ایرانسل`
  }
}

/** Step 3: summary, preview and the exact price (the quote leaves the account's blacklists out). */
function TargetedReview({ kind, draft, quote, counts }: { kind: TargetedKind; draft: TargetedDraft; quote: UseQueryResult<PriceQuote>; counts?: BankCounts }) {
  return (
    <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="5" alignItems="start">
      <Stack gap="5" minW="0">
        <SectionCard title="خلاصه ارسال" p="4" shadow="none">
          <ReviewRow label="روش ارسال">{TARGETED_METHODS[kind].title}</ReviewRow>
          <ReviewRow label="خط ارسال">
            <bdi>{toPersianDigits(draft.sender)}</bdi>
          </ReviewRow>
          <ReviewRow label="مخاطبان">{audienceText(kind, draft)}</ReviewRow>
          {counts && <ReviewRow label="شماره‌های محدوده">{formatNumber(counts.total)}</ReviewRow>}
          <ReviewRow label="انتخاب">{draft.pick === 'count' ? `${formatNumber(draft.target.count ?? 0)} شماره تصادفی` : 'همه'}</ReviewRow>
          <ReviewRow label="زمان ارسال">{scheduleText(draft)}</ReviewRow>
          {isGradual(draft) && <ReviewRow label="ارسال تدریجی">{gradualText(draft)}</ReviewRow>}
          <ReviewRow label="لغو۱۱">{draft.cancel11 ? 'افزوده می‌شود' : 'افزوده نمی‌شود'}</ReviewRow>
        </SectionCard>
        <MessagePreview text={draft.text} cancel11={draft.cancel11} />
      </Stack>
      <SectionCard title="هزینه" p="4" shadow="none" minW="0">
        <Stack gap="3">
          <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} bank />
          <Text fontSize="xs" color="app.muted">
            شماره‌های بانک به شما نمایش داده نمی‌شوند و در گزارش‌ها به شکل ۰۹۱۲*****۶۷ دیده می‌شوند.
          </Text>
        </Stack>
      </SectionCard>
    </Grid>
  )
}
