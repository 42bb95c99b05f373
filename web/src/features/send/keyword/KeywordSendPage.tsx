import { MessageStep, BulkReview, FileSourceStep, fileRows } from '../wizard/WizardSteps'
import { BulkWizard, useBulkDraft } from '../wizard/BulkWizard'
import { useUserFile } from '../../../lib/files'
import { columnKeywords, keywordPreview } from '../../../lib/keywords'
import { KeywordColumns } from './KeywordColumns'

export const KEYWORD_STEPS = ['بارگذاری فایل و خط ارسال', 'متن و برچسب‌ها', 'بررسی نهایی'] as const

/** /send-sms/keyword: a text whose `{ex_B}` tags take each recipient's cells from the file. */
export default function KeywordSendPage() {
  const { draft, patch, chooseSender, resume } = useBulkDraft()
  const file = useUserFile(draft.fileId).data
  const columns = file?.columns ?? []
  return (
    <BulkWizard kind="keyword" onSendAt={(sendAt) => patch({ sendAt })} steps={KEYWORD_STEPS} draft={draft} resume={resume} file={file}>
      {({ step, errors, quote }) =>
        step === 0 ? (
          <FileSourceStep draft={draft} errors={errors} file={file} purpose="send" sample="keyword" onSender={chooseSender} onChange={patch} />
        ) : step === 1 ? (
          <MessageStep draft={draft} errors={errors} onChange={patch} keywords={columnKeywords(columns)}>
            {file && <KeywordColumns file={file} />}
          </MessageStep>
        ) : (
          <BulkReview draft={draft} quote={quote} rows={fileRows(file)} preview={keywordPreview(draft.text, columns)} perRow />
        )
      }
    </BulkWizard>
  )
}
