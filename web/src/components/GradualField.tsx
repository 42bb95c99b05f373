import { HStack, Input, RadioGroup, Stack, Text } from '@chakra-ui/react'
import { TimePicker } from './TimePicker'
import { toPersianDigits } from '../lib/digits'
import { isGradual, type GradualDraft, type GradualMode } from '../lib/gradual'

interface Props {
  value: Partial<GradualDraft>
  onChange: (patch: Partial<GradualDraft>) => void
  error?: string
  /** The modes offered (a campaign's runs take a count, not an end time); all by default. */
  modes?: readonly GradualMode[]
  /** The helper shown while a pace is set. */
  note?: string
}

const MODES: ReadonlyArray<readonly [GradualMode, string]> = [
  ['off', 'یکجا'],
  ['per_hour', 'تعداد در ساعت'],
  ['per_minute', 'تعداد در دقیقه'],
  ['until', 'تا ساعت'],
]

const SEND_NOTE = 'گیرندگان به‌تدریج و فقط در ساعت مجاز ارسال فرستاده می‌شوند؛ زمان پایان تقریبی در مرحله بعد نشان داده می‌شود.'

/**
 * «ارسال تدریجی»: the send goes all at once, N an hour or a minute, or evenly until a time (Tehran),
 * within the sending hours; the quote says when it will end (docs/sending-rules.md).
 */
export function GradualField({ value, onChange, error, modes, note = SEND_NOTE }: Props) {
  const shown = modes ? MODES.filter(([v]) => modes.includes(v)) : MODES
  return (
    <Stack gap="3" data-testid="gradual">
      <Text fontWeight="medium">ارسال تدریجی</Text>
      <RadioGroup.Root value={value.gradual ?? 'off'} onValueChange={(e) => onChange({ gradual: e.value as GradualMode })} colorPalette="brand">
        <HStack gap="5" wrap="wrap">
          {shown.map(([v, label]) => (
            <RadioGroup.Item key={v} value={v} data-testid={`gradual-${v}`}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{label}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </HStack>
      </RadioGroup.Root>
      {(value.gradual === 'per_hour' || value.gradual === 'per_minute') && (
        <Input
          maxW="48"
          inputMode="numeric"
          dir="ltr"
          value={toPersianDigits(value.gradualCount ?? '')}
          onChange={(e) => onChange({ gradualCount: e.target.value })}
          placeholder={value.gradual === 'per_hour' ? '۲۰۰۰' : '۵۰'}
          aria-label={value.gradual === 'per_hour' ? 'تعداد در ساعت' : 'تعداد در دقیقه'}
          aria-invalid={!!error}
          data-testid="gradual-count"
        />
      )}
      {value.gradual === 'until' && (
        <HStack data-testid="gradual-until">
          <TimePicker value={value.gradualUntil ?? null} onChange={(gradualUntil) => onChange({ gradualUntil })} aria-label="ساعت پایان ارسال تدریجی" />
        </HStack>
      )}
      {error ? (
        <Text fontSize="sm" color="fg.error" data-testid="gradual-error">
          {error}
        </Text>
      ) : (
        isGradual(value) && (
          <Text fontSize="xs" color="app.muted">
            {note}
          </Text>
        )
      )}
    </Stack>
  )
}
