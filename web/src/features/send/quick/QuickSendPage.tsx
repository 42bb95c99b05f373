import { Alert, Box, Button, Flex, HStack, Stack } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { WizardStepper } from '../../../components/WizardStepper'
import { ArrowLeftIcon, ArrowRightIcon, SendIcon } from '../../../app/icons'
import { queryKeys } from '../../../lib/queryKeys'
import { uuid } from '../../../lib/uuid'
import { useIsMobile } from '../../../lib/viewport'
import { SectionCard } from '../../common/SectionCard'
import { ServerMessage } from '../../common/ServerMessage'
import { sendApi, useSenderLines } from '../api'
import { EMPTY_DRAFT, QUICK_STEPS, defaultSender, sendBody, stepErrors, withSender, type QuickDraft } from './draft'
import { StepMessage } from './StepMessage'
import { StepRecipients } from './StepRecipients'
import { StepReview } from './StepReview'

/** /send-sms/quick: recipients → text and settings → review and send. */
export default function QuickSendPage() {
  const navigate = useNavigate()
  const isMobile = useIsMobile()
  const queryClient = useQueryClient()
  const lines = useSenderLines()
  const [step, setStep] = useState(0)
  const [draft, setDraft] = useState<QuickDraft>(EMPTY_DRAFT)
  const [showErrors, setShowErrors] = useState(false)
  const [idempotencyKey, setIdempotencyKey] = useState('')

  useEffect(() => {
    const line = lines.data && defaultSender(lines.data)
    if (line && !draft.sender) setDraft((d) => withSender(d, line))
  }, [lines.data, draft.sender])

  const priceBody = { text: draft.text, numbers: draft.numbers, cancel11: draft.cancel11, sender: draft.sender }
  const quote = useQuery({
    queryKey: ['send', 'price', priceBody],
    queryFn: () => sendApi.calculatePrice(priceBody),
    enabled: step === 2,
    retry: false,
    staleTime: 60_000,
  })
  const send = useMutation({
    mutationFn: () => sendApi.send(sendBody(draft), idempotencyKey),
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.credit })
      void queryClient.invalidateQueries({ queryKey: queryKeys.reports })
      navigate(`/send-sms/success-send/${r.id}`, { state: r })
    },
  })

  const errors = showErrors ? stepErrors(step, draft) : {}
  const patch = (p: Partial<QuickDraft>) => setDraft((d) => ({ ...d, ...p }))

  const next = () => {
    if (Object.keys(stepErrors(step, draft)).length) return setShowErrors(true)
    setShowErrors(false)
    if (step === 1) {
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
      <SectionCard py="5">
        <WizardStepper steps={QUICK_STEPS} current={step} result={step === 2 && send.isError ? 'failure' : undefined} />
      </SectionCard>
      <SectionCard data-testid={`quick-step-${step}`}>
        {step === 0 && <StepRecipients draft={draft} errors={errors} onSender={(l) => setDraft((d) => withSender(d, l))} onNumbers={(numbers) => patch({ numbers })} />}
        {step === 1 && <StepMessage draft={draft} errors={errors} onChange={patch} />}
        {step === 2 && (
          <Stack gap="4">
            <StepReview draft={draft} quote={quote} />
            {send.isError && (
              <Alert.Root status="error" rounded="lg">
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
        )}
      </SectionCard>
      <Box position="sticky" bottom={isMobile ? '16' : '0'} zIndex="docked" py="3" bg="app.canvas">
        <Flex justify="space-between" gap="3">
          <Button variant="outline" onClick={back} disabled={send.isPending} data-testid="wizard-back">
            <ArrowRightIcon /> {step === 0 ? 'روش‌های ارسال' : 'مرحله قبل'}
          </Button>
          <HStack>
            {step < 2 ? (
              <Button colorPalette="brand" onClick={next} data-testid="wizard-next">
                مرحله بعد <ArrowLeftIcon />
              </Button>
            ) : (
              <Button
                colorPalette="brand"
                onClick={() => send.mutate()}
                loading={send.isPending}
                loadingText="در حال ثبت"
                disabled={!quote.data}
                data-testid="wizard-send"
              >
                <SendIcon transform="scaleX(-1)" /> {draft.schedule === 'later' ? 'ثبت ارسال زمان‌بندی‌شده' : 'ارسال پیامک'}
              </Button>
            )}
          </HStack>
        </Flex>
      </Box>
    </Stack>
  )
}
