import { useUserFile } from '../../../lib/files'
import { MessageStep, BulkReview, FileSourceStep, fileRows } from '../wizard/WizardSteps'
import { BulkWizard, useBulkDraft } from '../wizard/BulkWizard'

export const FILE_STEPS = ['بارگذاری فایل و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

/** /send-sms/file: one text to every valid number of an uploaded xlsx, csv or txt file. */
export default function FileSendPage() {
  const { draft, patch, chooseSender, resume } = useBulkDraft()
  const file = useUserFile(draft.fileId).data
  return (
    <BulkWizard kind="file" onSendAt={(sendAt) => patch({ sendAt })} steps={FILE_STEPS} draft={draft} resume={resume} file={file}>
      {({ step, errors, quote }) =>
        step === 0 ? (
          <FileSourceStep draft={draft} errors={errors} file={file} purpose="send" sample="send" onSender={chooseSender} onChange={patch} />
        ) : step === 1 ? (
          <MessageStep draft={draft} errors={errors} onChange={patch} />
        ) : (
          <BulkReview draft={draft} quote={quote} rows={fileRows(file)} preview={draft.text} />
        )
      }
    </BulkWizard>
  )
}
