import { HStack, RadioGroup, Stack, Text } from '@chakra-ui/react'
import { JalaliDateTimeInput } from '../../../components/JalaliDateInput'
import { MIN_LEAD_MINUTES, earliestSendAt, type ScheduleDraft } from '../../../lib/schedule'
import { toPersianDigits } from '../../../lib/digits'
import { GradualField } from '../../../components/GradualField'

interface Props {
  value: ScheduleDraft
  onChange: (patch: Partial<ScheduleDraft>) => void
  error?: string
  gradualError?: string
}

const CHOICES = [
  ['now', 'ارسال فوری'],
  ['later', 'ارسال زمان‌بندی‌شده'],
] as const

/** «ارسال فوری» or a Jalali date and time (Asia/Tehran) at least five minutes ahead, and the gradual option. */
export function ScheduleField({ value, onChange, error, gradualError }: Props) {
  return (
    <Stack gap="3">
      <Text fontWeight="medium">زمان ارسال</Text>
      <RadioGroup.Root value={value.schedule} onValueChange={(e) => onChange({ schedule: e.value as ScheduleDraft['schedule'] })} colorPalette="brand">
        <HStack gap="6" wrap="wrap">
          {CHOICES.map(([v, label]) => (
            <RadioGroup.Item key={v} value={v} data-testid={`schedule-${v}`}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{label}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </HStack>
      </RadioGroup.Root>
      {value.schedule === 'later' && (
        <Stack gap="1" maxW="sm" data-testid="send-at">
          <JalaliDateTimeInput
            value={value.sendAt}
            onChange={(sendAt) => onChange({ sendAt })}
            min={earliestSendAt()}
            invalid={!!error}
            placeholder="۱۴۰۴/۰۱/۰۱ ۱۰:۰۰"
          />
          {error ? (
            <Text fontSize="sm" color="fg.error">
              {error}
            </Text>
          ) : (
            <Text fontSize="xs" color="app.muted">
              {`تاریخ و ساعت به وقت تهران؛ دست‌کم ${toPersianDigits(MIN_LEAD_MINUTES)} دقیقه بعد از اکنون`}
            </Text>
          )}
        </Stack>
      )}
      <GradualField value={value} onChange={onChange} error={gradualError} />
    </Stack>
  )
}
