import { Box, Grid, Separator, Stack } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { ADVERTISING_CANCEL11_REASON, MessageEditor, type EditorKeyword } from '../../../components/MessageEditor'
import { formatNumber } from '../../../lib/format'
import { toPersianDigits } from '../../../lib/digits'
import { SectionCard } from '../../../components/SectionCard'
import type { PriceQuote } from '../api'
import type { SenderLine } from '../../../lib/lines'
import type { BulkDraft, BulkErrors } from './bulkDraft'
import { FileUpload } from '../../../components/FileUpload'
import { sendableCount, type FilePurpose, type SamplePurpose, type UserFile } from '../../../lib/files'
import { PreflightReport } from './PreflightReport'
import { PriceQuoteCard } from './PriceQuoteCard'
import { MessagePreview, ReviewRow, gradualText, scheduleText } from './review'
import { isGradual } from '../../../lib/gradual'
import { ScheduleField } from './ScheduleField'
import { SenderPicker } from '../../../components/SenderPicker'
import { allows, useAcl } from '../../../lib/acl'

interface FileSourceProps {
  draft: BulkDraft
  errors: BulkErrors
  file: UserFile | undefined
  purpose: FilePurpose
  sample: SamplePurpose
  onSender: (line: SenderLine) => void
  onChange: (patch: Partial<BulkDraft>) => void
}

/** Step 1 of the file-based wizards: sender line, the upload and its pre-flight report. */
export function FileSourceStep({ draft, errors, file, purpose, sample, onSender, onChange }: FileSourceProps) {
  return (
    <Stack gap="6">
      <SenderPicker value={draft.sender} onChange={onSender} error={errors.sender} />
      <Separator />
      <FileUpload purpose={purpose} sample={sample} fileId={draft.fileId} onFileId={(fileId) => onChange({ fileId })} error={errors.file} />
      {file?.status === 'ready' && String(file.id) === String(draft.fileId) && <PreflightReport file={file} />}
    </Stack>
  )
}

/** The fields the text-and-settings step edits. */
export type MessageDraft = Pick<BulkDraft, 'text' | 'cancel11' | 'cancel11Touched' | 'advertising' | 'schedule' | 'sendAt' | 'gradual' | 'gradualCount' | 'gradualUntil'>

interface MessageProps<D extends MessageDraft> {
  draft: D
  errors: Partial<Record<string, string>>
  onChange: (patch: Partial<D>) => void
  keywords?: EditorKeyword[]
  /** Shown under the editor (e.g. the file's columns). */
  children?: ReactNode
}

/** Step 2 of the text wizards: the text with the live counter, cancel-11 and the Jalali schedule. */
export function MessageStep<D extends MessageDraft>({ draft, errors, onChange, keywords, children }: MessageProps<D>) {
  const set = (p: Partial<MessageDraft>) => onChange(p as Partial<D>)
  // «درج متن آماده» reads the predefined messages: only for roles that may.
  const canInsert = allows(useAcl().data, 'predefined.view')
  return (
    <Stack gap="6">
      <Box data-testid="message">
        <MessageEditor
          value={draft.text}
          onChange={(text) => set({ text })}
          keywords={keywords}
          predefined={canInsert}
          trackedLinks
          cancel11={draft.cancel11}
          // Advertising lines must carry the footer: the switch stays on and locked.
          onCancel11Change={draft.advertising ? undefined : (cancel11) => set({ cancel11, cancel11Touched: true })}
          cancel11LockedReason={draft.advertising ? ADVERTISING_CANCEL11_REASON : undefined}
          invalid={!!errors.text}
          errorText={errors.text}
        />
      </Box>
      {children}
      <ScheduleField value={draft} onChange={set} error={errors.sendAt} gradualError={errors.gradual} />
    </Stack>
  )
}

interface ReviewProps {
  draft: BulkDraft
  quote: UseQueryResult<PriceQuote>
  /** Rows describing the source (file name, phonebooks, recipients). */
  rows: Array<{ label: string; value: ReactNode }>
  /** The text as shown to a recipient; null when every row has its own text. */
  preview: ReactNode | null
  perRow?: boolean
}

/** Step 3: summary, preview and the per-operator cost. */
export function BulkReview({ draft, quote, rows, preview, perRow }: ReviewProps) {
  return (
    <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="5" alignItems="start">
      <Stack gap="5" minW="0">
        <SectionCard title="خلاصه ارسال" p="4" shadow="none">
          <ReviewRow label="خط ارسال">
            <bdi>{toPersianDigits(draft.sender)}</bdi>
          </ReviewRow>
          {rows.map((r) => (
            <ReviewRow key={r.label} label={r.label}>
              {r.value}
            </ReviewRow>
          ))}
          <ReviewRow label="زمان ارسال">{scheduleText(draft)}</ReviewRow>
          {isGradual(draft) && <ReviewRow label="ارسال تدریجی">{gradualText(draft)}</ReviewRow>}
          <ReviewRow label="لغو۱۱">{draft.cancel11 ? 'افزوده می‌شود' : 'افزوده نمی‌شود'}</ReviewRow>
        </SectionCard>
        {preview !== null && <MessagePreview text={preview} cancel11={draft.cancel11} />}
      </Stack>
      <SectionCard title="هزینه" p="4" shadow="none" minW="0">
        <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} perRow={perRow} />
      </SectionCard>
    </Grid>
  )
}

/** The review rows of a file source. */
export function fileRows(file: UserFile | undefined): Array<{ label: string; value: ReactNode }> {
  if (!file) return []
  return [
    { label: 'فایل', value: <bdi>{file.name}</bdi> },
    { label: 'گیرندگان قابل ارسال', value: formatNumber(sendableCount(file)) },
  ]
}
