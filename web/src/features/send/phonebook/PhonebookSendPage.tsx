import { Separator, Stack } from '@chakra-ui/react'
import { useState } from 'react'
import type { SelectOption } from '../../../components/selectUtils'
import { formatNumber } from '../../../lib/format'
import { MessageStep, BulkReview } from '../wizard/WizardSteps'
import { BulkWizard, useBulkDraft } from '../wizard/BulkWizard'
import { SenderPicker } from '../../../components/SenderPicker'
import { phonebookRecipients, usePhonebookCount, usePhonebookOptions } from '../../../lib/phonebooks'
import { PhonebookPicker } from '../../../components/PhonebookPicker'

export const PHONEBOOK_STEPS = ['دفترچه تلفن و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

/** /send-sms/phonebook: one text to the contacts of one or more phonebooks. */
export default function PhonebookSendPage() {
  const { draft, patch, chooseSender, resume } = useBulkDraft()
  const [picked, setBooks] = useState<SelectOption<number>[] | null>(null)
  // A resumed draft names its phonebooks by id: their labels come from the options.
  const options = usePhonebookOptions('')
  const books = picked ?? (options.data ?? []).filter((o) => draft.phonebookIds.map(Number).includes(Number(o.value)))
  const count = usePhonebookCount(draft.phonebookIds)
  const rows = [
    { label: 'دفترچه‌های تلفن', value: books.map((b) => b.label).join('، ') || '—' },
    { label: 'گیرندگان قابل ارسال', value: formatNumber(phonebookRecipients(count.data)) },
  ]
  return (
    <BulkWizard kind="phonebook" steps={PHONEBOOK_STEPS} draft={draft} resume={resume}>
      {({ step, errors, quote }) =>
        step === 0 ? (
          <Stack gap="6">
            <SenderPicker value={draft.sender} onChange={chooseSender} error={errors.sender} />
            <Separator />
            <PhonebookPicker
              value={draft.phonebookIds}
              selected={books}
              onChange={(ids, options) => {
                patch({ phonebookIds: ids })
                setBooks(options)
              }}
              error={errors.phonebooks}
            />
          </Stack>
        ) : step === 1 ? (
          <MessageStep draft={draft} errors={errors} onChange={patch} />
        ) : (
          <BulkReview draft={draft} quote={quote} rows={rows} preview={draft.text} />
        )
      }
    </BulkWizard>
  )
}
