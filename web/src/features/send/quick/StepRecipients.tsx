import { Separator, Stack, Text } from '@chakra-ui/react'
import { NumberEntry } from '../../../components/NumberEntry'
import type { SenderLine } from '../../../lib/lines'
import type { QuickDraft } from './draft'
import { SenderPicker } from '../../../components/SenderPicker'

interface Props {
  draft: QuickDraft
  errors: Partial<Record<string, string>>
  onSender: (line: SenderLine) => void
  onNumbers: (numbers: string[]) => void
}

/** Step 1: sender line and recipients (typed or pasted). */
export function StepRecipients({ draft, errors, onSender, onNumbers }: Props) {
  return (
    <Stack gap="6">
      <SenderPicker value={draft.sender} onChange={onSender} error={errors.sender} />
      <Separator />
      <Stack gap="2" data-testid="recipients">
        <NumberEntry
          value={draft.numbers}
          onChange={onNumbers}
          label="شماره‌های گیرنده"
          validateMobile
          helperText="شماره را بنویسید و Enter بزنید، یا فهرستی از شماره‌ها را الصاق کنید"
        />
        {errors.numbers && (
          <Text fontSize="sm" color="fg.error" role="alert">
            {errors.numbers}
          </Text>
        )}
      </Stack>
    </Stack>
  )
}
