import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { MessageStep } from '../wizard/WizardSteps'
import { SendWizard } from '../wizard/SendWizard'
import { useDefaultSender } from '../wizard/sender'
import { useResumeDraft } from '../drafts/useDraft'
import { EMPTY_DRAFT, QUICK_STEPS, priceBody, sendBody, stepErrors, withSender, type QuickDraft } from './draft'
import { StepRecipients } from './StepRecipients'
import { StepReview } from './StepReview'

/** /send-sms/quick/steps (the wizard; /send-sms/quick is the one page): recipients → text and settings → review and send; ?to= starts with that number (the dashboard's test send). */
export default function QuickSendPage() {
  const [params] = useSearchParams()
  const [draft, setDraft] = useState<QuickDraft>(() => {
    const to = params.get('to')
    return to && /^0?9\d{9}$/.test(to) ? { ...EMPTY_DRAFT, numbers: [to] } : EMPTY_DRAFT
  })
  const patch = (p: Partial<QuickDraft>) => setDraft((d) => ({ ...d, ...p }))
  const cancel11Default = useDefaultSender(draft.sender, (line, c11) => setDraft((d) => withSender(d, line, c11)))
  const resume = useResumeDraft(({ fileId: _f, phonebookIds: _p, numbers, ...rest }) => setDraft((d) => ({ ...d, ...rest, numbers: numbers ?? [] })))

  return (
    <SendWizard
      steps={QUICK_STEPS}
      testId="quick"
      stepErrors={(step) => stepErrors(step, draft)}
      priceBody={priceBody(draft)}
      sendBody={() => sendBody(draft)}
      scheduled={draft.schedule === 'later'}
      onSendAt={(sendAt) => patch({ sendAt })}
      draft={{ type: 'quick', state: draft, resume }}
    >
      {({ step, errors, quote }) =>
        step === 0 ? (
          <StepRecipients draft={draft} errors={errors} onSender={(l) => setDraft((d) => withSender(d, l, cancel11Default))} onNumbers={(numbers) => patch({ numbers })} />
        ) : step === 1 ? (
          <MessageStep draft={draft} errors={errors} onChange={patch} />
        ) : (
          <StepReview draft={draft} quote={quote} />
        )
      }
    </SendWizard>
  )
}
