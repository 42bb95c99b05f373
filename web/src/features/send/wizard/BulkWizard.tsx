import { useState, type ReactNode } from 'react'
import type { SenderLine } from '../../../lib/lines'
import { bulkBody, bulkStepErrors, EMPTY_BULK, type BulkDraft, type BulkKind } from './bulkDraft'
import type { UserFile } from '../../../lib/files'
import { SendWizard, type WizardContext } from './SendWizard'
import { useDefaultSender, withSender } from './sender'

/** A bulk wizard's draft with the default line preselected. */
export function useBulkDraft() {
  const [draft, setDraft] = useState<BulkDraft>(EMPTY_BULK)
  const patch = (p: Partial<BulkDraft>) => setDraft((d) => ({ ...d, ...p }))
  const chooseSender = (line: SenderLine) => setDraft((d) => withSender(d, line))
  useDefaultSender(draft.sender, chooseSender)
  return { draft, patch, chooseSender }
}

interface Props {
  kind: BulkKind
  steps: readonly string[]
  draft: BulkDraft
  /** The uploaded file's report (file-based kinds). */
  file?: UserFile
  quoteFrom?: number
  children: (ctx: WizardContext) => ReactNode
}

/** The send wizard for one bulk kind: validation and the price/send bodies come from the draft. */
export function BulkWizard({ kind, steps, draft, file, quoteFrom, children }: Props) {
  return (
    <SendWizard
      steps={steps}
      testId={kind}
      stepErrors={(step) => bulkStepErrors(kind, step, draft, file)}
      priceBody={bulkBody(kind, draft, true)}
      sendBody={() => bulkBody(kind, draft)}
      scheduled={draft.schedule === 'later'}
      quoteFrom={quoteFrom}
    >
      {children}
    </SendWizard>
  )
}
