import { useState, type ReactNode } from 'react'
import type { SenderLine } from '../../../lib/lines'
import { bulkBody, bulkStepErrors, EMPTY_BULK, type BulkDraft, type BulkKind } from './bulkDraft'
import type { UserFile } from '../../../lib/files'
import type { ContactTag } from '../../../lib/contactTags'
import { SendWizard, type WizardContext } from './SendWizard'
import { useDefaultSender, withSender } from './sender'
import { useResumeDraft, type ResumeState } from '../drafts/useDraft'

/** A bulk wizard's draft with the default line preselected, or the saved draft of `?draft=` resumed. */
export function useBulkDraft() {
  const [draft, setDraft] = useState<BulkDraft>(EMPTY_BULK)
  const patch = (p: Partial<BulkDraft>) => setDraft((d) => ({ ...d, ...p }))
  const cancel11Default = useDefaultSender(draft.sender, (line, c11) => setDraft((d) => withSender(d, line, c11)))
  const chooseSender = (line: SenderLine) => setDraft((d) => withSender(d, line, cancel11Default))
  const resume = useResumeDraft(({ numbers: _numbers, fileId, phonebookIds, ...rest }) =>
    setDraft((d) => ({ ...d, ...rest, fileId: fileId ?? null, phonebookIds: phonebookIds ?? [] })),
  )
  return { draft, patch, chooseSender, resume }
}

interface Props {
  kind: BulkKind
  steps: readonly string[]
  draft: BulkDraft
  resume: ResumeState
  /** The uploaded file's report (file-based kinds). */
  file?: UserFile
  quoteFrom?: number
  /** A phonebook text's tags (checked before the review). */
  contactTags?: ContactTag[]
  /** Moves the scheduled send to another time (the next allowed time offered outside the sending hours). */
  onSendAt?: (at: Date) => void
  children: (ctx: WizardContext) => ReactNode
}

/** The send wizard for one bulk kind: validation and the price/send bodies come from the draft. */
export function BulkWizard({ kind, steps, draft, resume, file, quoteFrom, contactTags, onSendAt, children }: Props) {
  return (
    <SendWizard
      steps={steps}
      testId={kind}
      stepErrors={(step) => bulkStepErrors(kind, step, draft, file, undefined, contactTags)}
      priceBody={bulkBody(kind, draft)}
      sendBody={() => bulkBody(kind, draft)}
      scheduled={draft.schedule === 'later'}
      onSendAt={onSendAt}
      quoteFrom={quoteFrom}
      draft={{ type: kind, state: draft, resume }}
    >
      {children}
    </SendWizard>
  )
}
