import { Flex, Input, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { onlyDigits, toPersianDigits } from '../lib/digits'

/** Hours stay below 24 and minutes below 60 (spec §5 caps). */
export const HOUR_CAP = 24
export const MINUTE_CAP = 60

const pad = (n: number) => String(n).padStart(2, '0')

/** Minutes since midnight of «HH:mm»; null when malformed. */
export function timeToMinutes(time: string | null | undefined): number | null {
  const m = /^(\d{1,2}):(\d{1,2})$/.exec(time ?? '')
  if (!m) return null
  const h = Number(m[1])
  const mi = Number(m[2])
  return h < HOUR_CAP && mi < MINUTE_CAP ? h * 60 + mi : null
}

/** «HH:mm» from hour and minute, each clamped below its cap. */
export function composeTime(hour: number, minute: number): string {
  const h = Math.min(HOUR_CAP - 1, Math.max(0, Math.floor(hour)))
  const m = Math.min(MINUTE_CAP - 1, Math.max(0, Math.floor(minute)))
  return `${pad(h)}:${pad(m)}`
}

/** True when «HH:mm» lies within the optional min/max. */
export function timeInRange(time: string, min?: string | null, max?: string | null): boolean {
  const t = timeToMinutes(time)
  if (t === null) return false
  const lo = timeToMinutes(min)
  const hi = timeToMinutes(max)
  return (lo === null || t >= lo) && (hi === null || t <= hi)
}

export interface TimePickerProps {
  /** «HH:mm» or null. */
  value: string | null
  onChange: (value: string) => void
  /** Earliest allowed «HH:mm»; earlier changes are ignored. */
  min?: string | null
  /** Latest allowed «HH:mm»; later changes are ignored. */
  max?: string | null
  disabled?: boolean
  'aria-label'?: string
  size?: 'xs' | 'sm' | 'md'
}

/** Hour and minute fields (24-hour, Persian digits); arrow keys step and wrap. */
export function TimePicker({ value, onChange, min, max, disabled, size = 'sm', ...rest }: TimePickerProps) {
  const current = timeToMinutes(value)
  const hour = current === null ? null : Math.floor(current / 60)
  const minute = current === null ? null : current % 60
  const [text, setText] = useState({ h: '', m: '' })
  const minuteRef = useRef<HTMLInputElement>(null)

  useEffect(() => {
    setText({ h: hour === null ? '' : pad(hour), m: minute === null ? '' : pad(minute) })
  }, [hour, minute])

  const commit = (h: number, m: number) => {
    const next = composeTime(h, m)
    if (next !== value && timeInRange(next, min, max)) onChange(next)
    return next
  }

  const onType = (field: 'h' | 'm', raw: string) => {
    const digits = onlyDigits(raw).slice(-2)
    const cap = field === 'h' ? HOUR_CAP - 1 : MINUTE_CAP - 1
    const clamped = digits.length === 2 && Number(digits) > cap ? String(cap) : digits
    setText((t) => ({ ...t, [field]: clamped }))
    if (!clamped) return
    const n = Number(clamped)
    commit(field === 'h' ? n : (hour ?? 0), field === 'm' ? n : (minute ?? 0))
    if (field === 'h' && clamped.length === 2) minuteRef.current?.focus()
  }

  const onKey = (field: 'h' | 'm', e: KeyboardEvent) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
    e.preventDefault()
    const step = e.key === 'ArrowUp' ? 1 : -1
    const h = hour ?? 0
    const m = minute ?? 0
    if (field === 'h') commit((h + step + HOUR_CAP) % HOUR_CAP, m)
    else commit(h, (m + step + MINUTE_CAP) % MINUTE_CAP)
  }

  const revert = () => setText({ h: hour === null ? '' : pad(hour), m: minute === null ? '' : pad(minute) })

  const field = (name: 'h' | 'm') => (
    <Input
      ref={name === 'm' ? minuteRef : undefined}
      size={size}
      w="12"
      textAlign="center"
      inputMode="numeric"
      autoComplete="off"
      maxLength={2}
      placeholder="--"
      role="spinbutton"
      aria-label={name === 'h' ? 'ساعت' : 'دقیقه'}
      aria-valuemin={0}
      aria-valuemax={name === 'h' ? HOUR_CAP - 1 : MINUTE_CAP - 1}
      aria-valuenow={(name === 'h' ? hour : minute) ?? undefined}
      disabled={disabled}
      value={toPersianDigits(text[name])}
      onChange={(e) => onType(name, e.target.value)}
      onKeyDown={(e) => onKey(name, e)}
      onFocus={(e) => e.currentTarget.select()}
      onBlur={revert}
    />
  )

  return (
    <Flex role="group" aria-label={rest['aria-label'] ?? 'زمان'} dir="ltr" align="center" gap="1" justify="center">
      {field('h')}
      <Text aria-hidden fontWeight="bold">:</Text>
      {field('m')}
    </Flex>
  )
}
