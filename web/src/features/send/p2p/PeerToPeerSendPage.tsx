import { BulkReview, FileSourceStep, fileRows } from '../wizard/WizardSteps'
import { BulkWizard, useBulkDraft } from '../wizard/BulkWizard'
import { useUserFile } from '../../../lib/files'
import { P2PSettingsStep } from './P2PSettingsStep'

export const P2P_STEPS = ['بارگذاری فایل و خط ارسال', 'تنظیمات ارسال', 'بررسی نهایی'] as const

/** /send-sms/peer-to-peer: an xlsx of (message, mobile) rows, each row its own text. */
export default function PeerToPeerSendPage() {
  const { draft, patch, chooseSender, resume } = useBulkDraft()
  const file = useUserFile(draft.fileId).data
  return (
    <BulkWizard kind="peer_to_peer" onSendAt={(sendAt) => patch({ sendAt })} steps={P2P_STEPS} draft={draft} resume={resume} file={file} quoteFrom={1}>
      {({ step, errors, quote }) =>
        step === 0 ? (
          <FileSourceStep draft={draft} errors={errors} file={file} purpose="peer_to_peer" sample="peer_to_peer" onSender={chooseSender} onChange={patch} />
        ) : step === 1 ? (
          <P2PSettingsStep draft={draft} errors={errors} file={file} quote={quote} onChange={patch} />
        ) : (
          <BulkReview draft={draft} quote={quote} rows={fileRows(file)} preview={null} perRow />
        )
      }
    </BulkWizard>
  )
}
