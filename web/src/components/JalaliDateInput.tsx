import { Box, Button, HStack, IconButton, Input, InputGroup, Separator } from '@chakra-ui/react'
import { useEffect, useId, useRef, useState, type ClipboardEvent } from 'react'
import { toPersianDigits } from '../lib/digits'
import { compareJalaliDay, fromJalaliParts, jalaliText, toJalaliParts } from '../lib/jalali'
import { effectiveMin, isWithinBounds, maskJalaliInput, parseMaskedJalali, type DateBounds } from './dateMask'
import { CalendarIcon } from './icons'
import { JalaliCalendar, type JalaliDay } from './JalaliCalendar'
import { Popup } from './Popup'
import { useDebouncedValue } from './hooks'
import { TimePicker } from './TimePicker'

/** Spec §9: a typed date reaches onChange 700 ms after the last keystroke (Enter or leaving the field applies it at once). */
export const TYPING_DEBOUNCE_MS = 700
/** Spec §9: the open calendar follows the typed text 500 ms after the last keystroke. */
export const TEXT_DEBOUNCE_MS = 500

export interface JalaliDateInputProps extends DateBounds {
  value: Date | null
  onChange: (value: Date | null) => void
  placeholder?: string
  disabled?: boolean
  invalid?: boolean
  id?: string
  name?: string
  'aria-label'?: string
  'aria-describedby'?: string
  size?: 'sm' | 'md'
  /** The time picker of a date-and-time field shows a 12-hour clock. */
  twelveHour?: boolean
}

const dayOf = (d: Date): JalaliDay => {
  const p = toJalaliParts(d)
  return { year: p.year, month: p.month, day: p.day }
}
const timeOf = (d: Date) => jalaliText(d, true).slice(11)

function DateField({ value, onChange, withTime, placeholder, disabled, invalid, id, name, size = 'md', min, max, disablePast, twelveHour, ...aria }: JalaliDateInputProps & { withTime: boolean }) {
  const anchorRef = useRef<HTMLDivElement>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const format = (d: Date | null) => (d ? jalaliText(d, withTime) : '')
  const [text, setText] = useState(() => format(value))
  const [open, setOpen] = useState(false)
  const atOpen = useRef<Date | null>(value)
  const popupId = useId()
  const valueKey = value?.getTime() ?? null
  const typed = useRef<number | null>(null)
  const pending = useRef<number | undefined>(undefined)
  const shownText = useDebouncedValue(text, TEXT_DEBOUNCE_MS)
  useEffect(() => () => window.clearTimeout(pending.current), [])

  // Re-sync the text when the value changes, unless the change came from typing.
  useEffect(() => {
    if (valueKey !== null && valueKey === typed.current) return
    typed.current = null
    setText(value ? jalaliText(value, withTime) : '')
    // eslint-disable-next-line react-hooks/exhaustive-deps -- valueKey stands for value (a new Date of the same time is no change)
  }, [valueKey, withTime])

  const bounds = { min, max, disablePast }
  const today = dayOf(new Date())
  const minDate = effectiveMin(bounds)
  const minDay = minDate ? dayOf(minDate) : null
  const maxDay = max ? dayOf(max) : null
  const accept = (d: Date) => {
    if (!isWithinBounds(d, bounds, withTime)) return false
    if (d.getTime() !== value?.getTime()) onChange(d)
    return true
  }

  /** Takes a typed date (the text stays as typed). */
  const acceptTyped = (d: Date) => {
    typed.current = d.getTime()
    if (!accept(d)) typed.current = null
  }

  const onType = (raw: string) => {
    const masked = maskJalaliInput(raw, withTime, raw.length < toPersianDigits(text).length)
    setText(masked)
    window.clearTimeout(pending.current)
    if (masked === '') return
    const parsed = parseMaskedJalali(masked, withTime)
    if (parsed) pending.current = window.setTimeout(() => acceptTyped(parsed), TYPING_DEBOUNCE_MS)
  }

  /** A pasted whole date (any digits and separators) replaces the text and applies at once. */
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const masked = maskJalaliInput(e.clipboardData.getData('text').trim(), withTime)
    const parsed = parseMaskedJalali(masked, withTime)
    if (!parsed) return
    e.preventDefault()
    window.clearTimeout(pending.current)
    setText(masked)
    acceptTyped(parsed)
  }

  /** Applies what was typed at once, or goes back to the last valid value; an emptied field clears it. */
  const revert = () => {
    window.clearTimeout(pending.current)
    if (text.trim() === '') {
      if (value) onChange(null)
      return
    }
    const parsed = parseMaskedJalali(text, withTime)
    if (!parsed || !isWithinBounds(parsed, bounds, withTime)) return setText(format(value))
    acceptTyped(parsed)
    setText(format(parsed))
  }
  const typedDay = open ? parseMaskedJalali(shownText, withTime) : null

  const show = () => {
    if (disabled || open) return
    atOpen.current = value
    setOpen(true)
  }
  const close = (focusInput = false) => {
    setOpen(false)
    revert()
    if (focusInput) inputRef.current?.focus()
  }
  const cancel = () => {
    if (atOpen.current?.getTime() !== value?.getTime()) onChange(atOpen.current)
    setText(format(atOpen.current))
    setOpen(false)
    inputRef.current?.focus()
  }

  const pick = (day: JalaliDay) => {
    const [h, m] = (value && withTime ? timeOf(value) : '00:00').split(':').map(Number)
    const d = fromJalaliParts(day.year, day.month, day.day, h, m)
    if (!d) return
    if (withTime && !isWithinBounds(d, bounds, true)) {
      // On the first allowed day the earliest allowed minute is taken instead.
      if (minDate && minDay && compareJalaliDay(day, minDay) === 0) accept(new Date(Math.ceil(minDate.getTime() / 60000) * 60000))
      return
    }
    if (accept(d) && !withTime) {
      setOpen(false)
      inputRef.current?.focus()
    }
  }

  const setTime = (time: string) => {
    const base = value ?? fromJalaliParts(today.year, today.month, today.day)
    if (!base) return
    const day = dayOf(base)
    const [h, m] = time.split(':').map(Number)
    const d = fromJalaliParts(day.year, day.month, day.day, h, m)
    if (d) accept(d)
  }

  const todayOutside = (!!minDay && compareJalaliDay(today, minDay) < 0) || (!!maxDay && compareJalaliDay(today, maxDay) > 0)
  const sameDayMin = withTime && minDate && value && jalaliText(minDate) === jalaliText(value) ? timeOf(minDate) : null
  const sameDayMax = withTime && max && value && jalaliText(max) === jalaliText(value) ? timeOf(max) : null
  const label = aria['aria-label'] ?? (withTime ? 'تاریخ و ساعت' : 'تاریخ')

  return (
    <Box
      ref={anchorRef}
      w="full"
      onBlur={(e) => {
        const to = e.relatedTarget
        if (!open || !to || anchorRef.current?.contains(to) || document.getElementById(popupId)?.contains(to)) return
        close()
      }}
    >
      <InputGroup
        endElement={
          <IconButton size="xs" variant="ghost" aria-label="باز کردن تقویم" disabled={disabled} onClick={() => (open ? close(true) : show())} me="-1">
            <CalendarIcon color="fg.muted" />
          </IconButton>
        }
      >
        <Input
          ref={inputRef}
          id={id}
          name={name}
          size={size}
          dir="ltr"
          textAlign="end"
          // The text runs left-to-right while the calendar button sits at the inline end (left in RTL).
          _rtl={{ pl: 'var(--input-height)', pr: '3' }}
          inputMode="numeric"
          autoComplete="off"
          maxLength={withTime ? 16 : 10}
          placeholder={placeholder ?? toPersianDigits(withTime ? '1404/01/01 08:30' : '1404/01/01')}
          aria-label={label}
          aria-describedby={aria['aria-describedby']}
          aria-invalid={invalid || undefined}
          aria-haspopup="dialog"
          aria-expanded={open}
          disabled={disabled}
          value={toPersianDigits(text)}
          onChange={(e) => onType(e.target.value)}
          onPaste={onPaste}
          onFocus={show}
          onClick={show}
          onBlur={(e) => {
            if (!anchorRef.current?.contains(e.relatedTarget) && !open) revert()
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && open) {
              e.preventDefault()
              e.stopPropagation()
              close()
            } else if (e.key === 'Enter') {
              e.preventDefault()
              close()
            } else if (e.key === 'ArrowDown' && open) {
              e.preventDefault()
              document.getElementById(popupId)?.querySelector<HTMLButtonElement>('[role="grid"] button[tabindex="0"]')?.focus()
            }
          }}
        />
      </InputGroup>
      <Popup id={popupId} open={open} anchorRef={anchorRef} onClose={close} matchWidth={false} role="dialog" aria-label={`انتخاب ${label}`}>
        <JalaliCalendar
          value={typedDay ? dayOf(typedDay) : value ? dayOf(value) : null}
          onSelect={pick}
          today={today}
          min={minDay}
          max={maxDay}
          footer={
            <>
              {withTime && (
                <>
                  <Separator />
                  <TimePicker value={value ? timeOf(value) : null} onChange={setTime} min={sameDayMin} max={sameDayMax} disabled={!value}
                    twelveHour={twelveHour} />
                </>
              )}
              <HStack justify="space-between" pt="1">
                <Button size="xs" variant="ghost" colorPalette="brand" onClick={() => pick(today)} disabled={todayOutside}>
                  امروز
                </Button>
                {withTime && (
                  <HStack gap="2">
                    <Button size="xs" variant="outline" onClick={cancel}>انصراف</Button>
                    <Button size="xs" colorPalette="brand" onClick={() => close(true)}>تایید</Button>
                  </HStack>
                )}
              </HStack>
            </>
          }
        />
      </Popup>
    </Box>
  )
}

/** A Jalali date field («۱۴۰۴/۰۱/۰۱») with typing mask and a calendar popup. */
export function JalaliDateInput(props: JalaliDateInputProps) {
  return <DateField {...props} withTime={false} />
}

/** A Jalali date-and-time field («۱۴۰۴/۰۱/۰۱ ۰۸:۳۰», Asia/Tehran) with calendar and time picker. */
export function JalaliDateTimeInput(props: JalaliDateInputProps) {
  return <DateField {...props} withTime />
}
