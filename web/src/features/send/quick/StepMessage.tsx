import { Box, RadioGroup, HStack, Stack, Text } from '@chakra-ui/react'
import { MessageEditor } from '../../../components/MessageEditor'
import { JalaliDateTimeInput } from '../../../components/JalaliDateInput'
import type { QuickDraft } from './draft'

interface Props {
  draft: QuickDraft
  errors: Partial<Record<string, string>>
  onChange: (patch: Partial<QuickDraft>) => void
}

/** Step 2: text with the live part counter, cancel-11 and an optional Jalali schedule. */
export function StepMessage({ draft, errors, onChange }: Props) {
  return (
    <Stack gap="6">
      <Box data-testid="message">
        <MessageEditor
          value={draft.text}
          onChange={(text) => onChange({ text })}
          cancel11={draft.cancel11}
          onCancel11Change={(cancel11) => onChange({ cancel11, cancel11Touched: true })}
          invalid={!!errors.text}
          errorText={errors.text}
        />
      </Box>
      <Stack gap="3">
        <Text fontWeight="medium">زمان ارسال</Text>
        <RadioGroup.Root
          value={draft.schedule}
          onValueChange={(e) => onChange({ schedule: e.value as QuickDraft['schedule'] })}
          colorPalette="brand"
        >
          <HStack gap="6" wrap="wrap">
            {(
              [
                ['now', 'ارسال فوری'],
                ['later', 'ارسال زمان‌بندی‌شده'],
              ] as const
            ).map(([value, label]) => (
              <RadioGroup.Item key={value} value={value} data-testid={`schedule-${value}`}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{label}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </HStack>
        </RadioGroup.Root>
        {draft.schedule === 'later' && (
          <Stack gap="1" maxW="sm">
            <JalaliDateTimeInput
              value={draft.sendAt}
              onChange={(sendAt) => onChange({ sendAt })}
              disablePast
              invalid={!!errors.sendAt}
              placeholder="۱۴۰۴/۰۱/۰۱ ۱۰:۰۰"
            />
            {errors.sendAt ? (
              <Text fontSize="sm" color="fg.error">
                {errors.sendAt}
              </Text>
            ) : (
              <Text fontSize="xs" color="app.muted">
                تاریخ و ساعت به وقت تهران
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Stack>
  )
}
