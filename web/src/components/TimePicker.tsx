import { Button, Flex, Input, Text } from '@chakra-ui/react'
import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'
import { onlyDigits, toLatinDigits, toPersianDigits } from '../lib/digits'

/** Hours stay below 24 and minutes below 60 (spec §5 caps); a 12-hour clock shows 1–12. */
export const HOUR_CAP = 24
export const MINUTE_CAP = 60
export const HOUR12_CAP = 12

/** The 12-hour face of a 0–23 hour: 1–12 and whether it is after noon (0 → 12 AM, 12 → 12 PM). */
export function to12Hour(hour: number): { hour: number; pm: boolean } {
  return { hour: hour % 12 === 0 ? 12 : hour % 12, pm: hour >= 12 }
}

/** The 0–23 hour of a 12-hour clock (1–12, clamped) and its half of the day. */
export function from12Hour(hour: number, pm: boolean): number {
  const h = Math.min(HOUR12_CAP, Math.max(1, Math.floor(hour))) % 12
  return pm ? h + 12 : h
}

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

/**
 * The «HH:mm» a pasted or typed whole time stands for («۱۰:۳۰», «10.30», «1030», «9:5»; Persian,
 * Arabic or Latin digits); null when it is not a time.
 */
export function parseTimeText(text: string): string | null {
  const t = toLatinDigits(text).trim()
  const m = /^(\d{1,2})\s*[:٫.,-]\s*(\d{1,2})$/.exec(t) ?? /^(\d{2})(\d{2})$/.exec(t)
  if (!m) return null
  const [h, mi] = [Number(m[1]), Number(m[2])]
  return h < HOUR_CAP && mi < MINUTE_CAP ? composeTime(h, mi) : null
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
  /** A 12-hour clock: the hour field shows 1–12 (capped at 12) with a «ق.ظ / ب.ظ» toggle; the value stays 24-hour. */
  twelveHour?: boolean
}

/** Hour and minute fields (24-hour, or 12-hour with a half-day toggle; Persian digits); arrow keys step and wrap. */
export function TimePicker({ value, onChange, min, max, disabled, size = 'sm', twelveHour = false, ...rest }: TimePickerProps) {
  const current = timeToMinutes(value)
  const hour = current === null ? null : Math.floor(current / 60)
  const minute = current === null ? null : current % 60
  const pm = hour !== null && hour >= 12
  const [text, setText] = useState({ h: '', m: '' })
  const minuteRef = useRef<HTMLInputElement>(null)
  // The field being typed in keeps the text as typed: re-writing it from the value
  // («1» → «01») would leave no room for the second digit (typing «10» gave 01:00).
  const editing = useRef<'h' | 'm' | null>(null)
  /** The hour as shown: 0–23, or 1–12 on a 12-hour clock. */
  const shown = (h: number | null) => (h === null ? '' : pad(twelveHour ? to12Hour(h).hour : h))
  /** The 0–23 hour of a typed or stepped hour field value. */
  const toHour = (n: number) => (twelveHour ? from12Hour(n, pm) : n)

  useEffect(() => {
    setText((t) => ({
      h: editing.current === 'h' ? t.h : shown(hour),
      m: editing.current === 'm' ? t.m : minute === null ? '' : pad(minute),
    }))
    // eslint-disable-next-line react-hooks/exhaustive-deps -- shown depends only on twelveHour
  }, [hour, minute, twelveHour])

  const commit = (h: number, m: number) => {
    const next = composeTime(h, m)
    if (next !== value && timeInRange(next, min, max)) onChange(next)
    return next
  }

  const onType = (field: 'h' | 'm', raw: string) => {
    const whole = parseTimeText(raw)
    if (whole && onlyDigits(raw).length > 2) return takeWhole(whole)
    const digits = onlyDigits(raw).slice(-2)
    const cap = field === 'h' ? (twelveHour ? HOUR12_CAP : HOUR_CAP - 1) : MINUTE_CAP - 1
    const clamped = digits.length === 2 && Number(digits) > cap ? String(cap) : digits
    setText((t) => ({ ...t, [field]: clamped }))
    if (!clamped || (field === 'h' && twelveHour && Number(clamped) === 0)) return
    const n = Number(clamped)
    commit(field === 'h' ? toHour(n) : (hour ?? 0), field === 'm' ? n : (minute ?? 0))
    // The hour is complete after two digits, or after one that no second digit can follow.
    const done = clamped.length === 2 || n * 10 > cap
    if (field === 'h' && done) minuteRef.current?.focus()
  }

  /** Takes a whole «HH:mm» (pasted or typed into one field). */
  const takeWhole = (time: string) => {
    const [h, m] = time.split(':').map(Number)
    commit(h, m)
    editing.current = null
    setText({ h: shown(h), m: pad(m) })
  }

  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const whole = parseTimeText(e.clipboardData.getData('text'))
    if (!whole) return
    e.preventDefault()
    takeWhole(whole)
  }

  const onKey = (field: 'h' | 'm', e: KeyboardEvent) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
    e.preventDefault()
    const step = e.key === 'ArrowUp' ? 1 : -1
    const h = hour ?? 0
    const m = minute ?? 0
    if (field === 'm') commit(h, (m + step + MINUTE_CAP) % MINUTE_CAP)
    else if (!twelveHour) commit((h + step + HOUR_CAP) % HOUR_CAP, m)
    else commit(from12Hour(((to12Hour(h).hour - 1 + step + HOUR12_CAP) % HOUR12_CAP) + 1, pm), m) // 12 → 1 keeps the half of the day
  }

  const revert = () => setText({ h: shown(hour), m: minute === null ? '' : pad(minute) })

  const field = (name: 'h' | 'm') => (
    <Input
      ref={name === 'm' ? minuteRef : undefined}
      size={size}
      w="12"
      textAlign="center"
      inputMode="numeric"
      autoComplete="off"
      placeholder="--"
      role="spinbutton"
      aria-label={name === 'h' ? 'ساعت' : 'دقیقه'}
      aria-valuemin={name === 'h' && twelveHour ? 1 : 0}
      aria-valuemax={name === 'h' ? (twelveHour ? HOUR12_CAP : HOUR_CAP - 1) : MINUTE_CAP - 1}
      aria-valuenow={(name === 'h' ? (hour === null ? null : Number(shown(hour))) : minute) ?? undefined}
      disabled={disabled}
      value={toPersianDigits(text[name])}
      onChange={(e) => onType(name, e.target.value)}
      onKeyDown={(e) => onKey(name, e)}
      onPaste={onPaste}
      onFocus={(e) => {
        editing.current = name
        e.currentTarget.select()
      }}
      onBlur={() => {
        editing.current = null
        revert()
      }}
    />
  )

  return (
    <Flex role="group" aria-label={rest['aria-label'] ?? 'زمان'} dir="ltr" align="center" gap="1" justify="center">
      {field('h')}
      <Text aria-hidden fontWeight="bold">:</Text>
      {field('m')}
      {twelveHour && (
        <Button size="xs" variant="outline" minW="12" disabled={disabled || hour === null} aria-label={pm ? 'بعد از ظهر' : 'پیش از ظهر'}
          onClick={() => hour !== null && commit((hour + 12) % HOUR_CAP, minute ?? 0)} data-testid="time-meridiem">
          {pm ? 'ب.ظ' : 'ق.ظ'}
        </Button>
      )}
    </Flex>
  )
}
