import { Alert, Box, Button, Flex, HStack, Stack, Text } from '@chakra-ui/react'
import { useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useRef, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { WizardStepper } from '../../../components/WizardStepper'
import { ArrowLeftIcon, ArrowRightIcon, SendIcon } from '../../../components/outlineIcons'
import { uuid } from '../../../lib/uuid'
import { useIsMobile } from '../../../lib/viewport'
import { SectionCard } from '../../../components/SectionCard'
import { ServerMessage } from '../../../components/ServerMessage'
import { ErrorState, LoadingState } from '../../../components/States'
import { sendApi, type BulkSendBody, type DraftType, type PriceBody, type PriceQuote, type SendBody, type TargetedSendBody } from '../api'
import { HoldDialog } from './HoldDialog'
import { useSubmitSend } from './useSubmitSend'
import { TestSendButton, testBodyOf } from './TestSendButton'
import { OutsideHoursOffer, scheduledOutsideNext } from './OutsideHoursOffer'
import type { WizardState } from '../drafts/model'
import { useDraftSaver, type ResumeState } from '../drafts/useDraft'
import { useAutoDraft } from '../drafts/useAutoDraft'
import { LeaveGuard } from '../drafts/LeaveGuard'
import { ResumeOffer } from '../drafts/ResumeOffer'

/** Field errors of one step, by field name. */
export type StepErrors = Partial<Record<string, string>>

export interface WizardContext {
  step: number
  /** Shown only after a «مرحله بعد» press found errors. */
  errors: StepErrors
  quote: UseQueryResult<PriceQuote>
}

interface Props {
  /** The three step titles. */
  steps: readonly string[]
  /** Step containers get data-testid `{testId}-step-{n}`. */
  testId: string
  stepErrors: (step: number) => StepErrors
  priceBody: PriceBody | BulkSendBody | TargetedSendBody
  sendBody: () => SendBody | BulkSendBody | TargetedSendBody
  scheduled: boolean
  /**
   * Moves a scheduled send to another time: given, a scheduled send outside its sending
   * hours is offered the next allowed time on the review step.
   */
  onSendAt?: (at: Date) => void
  /** First step on which the price is asked (the review step by default). */
  quoteFrom?: number
  /** The draft this wizard saves («ذخیره پیش‌نویس») and the one it resumed (`?draft=`); none: no drafts. */
  draft?: { type: DraftType; state: WizardState; resume: ResumeState }
  children: (ctx: WizardContext) => ReactNode
}

/**
 * The three-step send wizard of every send method: a stepper, the step's content, and a sticky
 * bar with back / next / send. The price comes from POST /send/calculate-price; the send goes
 * out with one Idempotency-Key per review and lands on /send-sms/success-send/{id}. Every step
 * can save the wizard as a draft, and it is saved by itself while edited; leaving a wizard that
 * holds work asks first; a method's waiting draft is offered on opening it; a send removes the draft.
 */
export function SendWizard({ steps, testId, stepErrors, priceBody, sendBody, scheduled, onSendAt, quoteFrom, draft, children }: Props) {
  const navigate = useNavigate()
  const last = steps.length - 1
  const [step, setStep] = useState(0)
  const [showErrors, setShowErrors] = useState(false)
  const [idempotencyKey, setIdempotencyKey] = useState('')
  const drafts = useDraftSaver(draft?.type ?? 'quick', draft?.resume.draftId ?? null)
  // Set once the send is accepted: moving on to its result page is not «leaving».
  const sent = useRef(false)

  const quote = useQuery({
    queryKey: ['send', 'price', priceBody],
    queryFn: () => sendApi.calculatePrice(priceBody),
    enabled: step >= (quoteFrom ?? last),
    retry: false,
    staleTime: 60_000,
  })
  const { send, holdUntil, clearHold } = useSubmitSend({
    sendBody, scheduled, idempotencyKey,
    onAccepted: () => {
      sent.current = true
      drafts.discard()
    },
  })

  const auto = useAutoDraft(drafts, draft?.state, !!draft && !draft.resume.loading && !send.isPending && !send.isSuccess)
  const offerNext = step === last && scheduled && onSendAt ? scheduledOutsideNext(quote.data, send.error) : null
  const takeNext = (next: string) => {
    send.reset()
    onSendAt?.(new Date(next))
  }

  const errors = showErrors ? stepErrors(step) : {}
  const next = () => {
    if (Object.keys(stepErrors(step)).length) return setShowErrors(true)
    setShowErrors(false)
    if (step === last - 1) {
      setIdempotencyKey(uuid()) // one key per review: a retried POST /send returns the first send
      send.reset()
    }
    setStep((s) => s + 1)
    window.scrollTo({ top: 0 })
  }
  const back = () => {
    setShowErrors(false)
    if (step === 0) navigate('/send-sms')
    else setStep((s) => s - 1)
  }

  return (
    <Stack gap="5">
      {draft && <LeaveGuard when={auto.dirty} passRef={sent} flush={auto.flush} />}
      {draft && <ResumeOffer type={draft.type} hidden={auto.dirty || draft.resume.draftId !== null} ownId={drafts.id} />}
      <SectionCard py="5">
        <WizardStepper steps={steps} current={step} result={step === last && send.isError ? 'failure' : undefined} />
      </SectionCard>
      <SectionCard data-testid={`${testId}-step-${step}`}>
        <Stack gap="4">
          {draft?.resume.loading ? (
            <LoadingState title="در حال بارگذاری پیش‌نویس" />
          ) : draft?.resume.error ? (
            <ErrorState title="پیش‌نویس بارگذاری نشد" description="ممکن است حذف شده باشد" onRetry={draft.resume.retry} />
          ) : (
            children({ step, errors, quote })
          )}
          {step === last && <TestSendButton body={testBodyOf(sendBody(), quote.data)} />}
          {offerNext && <OutsideHoursOffer next={offerNext} onUse={() => takeNext(offerNext)} />}
          {step === last && send.isError && !holdUntil && (
            <Alert.Root status="error" rounded="lg" data-testid="send-error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>ارسال ثبت نشد</Alert.Title>
                <Alert.Description>
                  <ServerMessage error={send.error} />
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
        </Stack>
      </SectionCard>
      <HoldDialog next={holdUntil} onClose={clearHold} onHold={() => send.mutate(true)} loading={send.isPending} />
      <WizardBar
        first={step === 0}
        last={step === last}
        busy={send.isPending}
        onBack={back}
        onNext={next}
        onSend={() => send.mutate(false)}
        canSend={!!quote.data}
        scheduled={scheduled}
        onSaveDraft={draft ? () => drafts.save(draft.state) : undefined}
        savingDraft={drafts.saving}
        autosaved={!!draft && auto.dirty && !auto.unsaved}
        resuming={!!draft?.resume.loading}
      />
    </Stack>
  )
}

interface BarProps {
  first: boolean
  last: boolean
  busy: boolean
  onBack: () => void
  onNext: () => void
  onSend: () => void
  canSend: boolean
  scheduled: boolean
  /** Absent: the method keeps no drafts and the button is not shown. */
  onSaveDraft?: () => void
  savingDraft: boolean
  /** A resumed draft is still loading: neither saving nor moving on means anything yet. */
  resuming: boolean
  /** The draft holds the wizard's latest changes (saved by itself). */
  autosaved: boolean
}

/** The sticky bar: back, «ذخیره پیش‌نویس» («پیش‌نویس» on mobile) and next or send. */
function WizardBar({ first, last, busy, onBack, onNext, onSend, canSend, scheduled, onSaveDraft, savingDraft, resuming, autosaved }: BarProps) {
  const isMobile = useIsMobile()
  return (
    <Box position="sticky" bottom={isMobile ? '16' : '0'} zIndex="docked" py="3" bg="app.canvas">
      <Flex justify="space-between" gap="3">
        <Button variant="outline" onClick={onBack} disabled={busy} data-testid="wizard-back">
          <ArrowRightIcon /> {first && !isMobile ? 'روش‌های ارسال' : 'مرحله قبل'}
        </Button>
        <HStack gap={isMobile ? '1' : '2'}>
          {autosaved && !isMobile && (
            <Text fontSize="xs" color="fg.muted" data-testid="draft-autosaved">
              پیش‌نویس خودکار ذخیره شد
            </Text>
          )}
          {onSaveDraft && (<Button
            variant="ghost"
            px={isMobile ? '2' : undefined}
            aria-label="ذخیره پیش‌نویس"
            onClick={onSaveDraft}
            loading={savingDraft}
            disabled={busy || resuming}
            data-testid="wizard-save-draft"
          >
            {isMobile ? 'پیش‌نویس' : 'ذخیره پیش‌نویس'}
          </Button>)}
          {!last ? (
            <Button colorPalette="brand" onClick={onNext} disabled={resuming} data-testid="wizard-next">
              مرحله بعد <ArrowLeftIcon />
            </Button>
          ) : (
            <Button colorPalette="brand" onClick={onSend} loading={busy} loadingText="در حال ثبت" disabled={!canSend} data-testid="wizard-send">
              {/* On a phone the bar's three buttons fit in 390 px only with the short label. */}
              <SendIcon transform="scaleX(-1)" /> {scheduled ? (isMobile ? 'ثبت زمان‌بندی' : 'ثبت ارسال زمان‌بندی‌شده') : 'ارسال پیامک'}
            </Button>
          )}
        </HStack>
      </Flex>
    </Box>
  )
}
