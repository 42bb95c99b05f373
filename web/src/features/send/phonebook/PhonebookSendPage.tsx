import { Separator, Stack } from '@chakra-ui/react'
import { useState } from 'react'
import type { SelectOption } from '../../../components/selectUtils'
import { formatNumber } from '../../../lib/format'
import { MessageStep, BulkReview } from '../wizard/WizardSteps'
import { BulkWizard, useBulkDraft } from '../wizard/BulkWizard'
import { SenderPicker } from '../../../components/SenderPicker'
import { phonebookRecipients, usePhonebookCount } from '../../../lib/phonebooks'
import { PhonebookPicker } from '../../../components/PhonebookPicker'

export const PHONEBOOK_STEPS = ['دفترچه تلفن و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

/** /send-sms/phonebook: one text to the contacts of one or more phonebooks. */
export default function PhonebookSendPage() {
  const { draft, patch, chooseSender } = useBulkDraft()
  const [books, setBooks] = useState<SelectOption<number>[]>([])
  const count = usePhonebookCount(draft.phonebookIds)
  const rows = [
    { label: 'دفترچه‌های تلفن', value: books.map((b) => b.label).join('، ') || '—' },
    { label: 'گیرندگان قابل ارسال', value: formatNumber(phonebookRecipients(count.data)) },
  ]
  return (
    <BulkWizard kind="phonebook" steps={PHONEBOOK_STEPS} draft={draft}>
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
