import { Box, Button, HStack, IconButton, NativeSelect, Stack } from '@chakra-ui/react'
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { toPersianDigits } from '../lib/digits'
import {
  addJalaliDays, compareJalaliDay, JALALI_MONTHS, JALALI_WEEKDAYS, JALALI_WEEKDAYS_SHORT, jalaliMonthLength, jalaliWeekday,
} from '../lib/jalali'
import { ChevronEndIcon, ChevronStartIcon } from './icons'

export interface JalaliDay {
  year: number
  month: number
  day: number
}

export interface JalaliCalendarProps {
  value: JalaliDay | null
  onSelect: (day: JalaliDay) => void
  today: JalaliDay
  min?: JalaliDay | null
  max?: JalaliDay | null
  /** Extra content under the grid (a time picker, buttons). */
  footer?: ReactNode
}

/** Year choices: 201 years, 103 before the current one (spec §9). */
export function calendarYears(currentYear: number): number[] {
  return Array.from({ length: 201 }, (_, i) => currentYear - 103 + i)
}

/** Weeks of a Jalali month, Saturday first; null pads the first and last week. */
export function monthGrid(year: number, month: number): Array<Array<number | null>> {
  const cells: Array<number | null> = Array(jalaliWeekday(year, month, 1)).fill(null)
  for (let d = 1; d <= jalaliMonthLength(year, month); d++) cells.push(d)
  while (cells.length % 7) cells.push(null)
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7))
}

const dayLabel = (d: JalaliDay) => toPersianDigits(`${d.day} ${JALALI_MONTHS[d.month - 1]} ${d.year}`)

/** A Saturday-first Jalali month grid with Persian digits; arrow keys move the focused day. */
export function JalaliCalendar({ value, onSelect, today, min, max, footer }: JalaliCalendarProps) {
  const start = value ?? today
  const [view, setView] = useState({ year: start.year, month: start.month })
  const [focused, setFocused] = useState<JalaliDay>(start)
  const gridRef = useRef<HTMLTableElement>(null)
  const moved = useRef(false)

  // A value typed elsewhere brings its month into view.
  useEffect(() => {
    if (!value) return
    moved.current = false
    setView({ year: value.year, month: value.month })
    setFocused({ year: value.year, month: value.month, day: value.day })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the day it names, not the object identity, moves the view
  }, [value?.year, value?.month, value?.day])

  useEffect(() => {
    if (!moved.current) return
    gridRef.current?.querySelector<HTMLButtonElement>('[data-focused]')?.focus()
  }, [focused])

  const outside = (d: JalaliDay) => (min ? compareJalaliDay(d, min) < 0 : false) || (max ? compareJalaliDay(d, max) > 0 : false)
  const shiftMonth = (delta: number) => {
    const index = view.year * 12 + view.month - 1 + delta
    setView({ year: Math.floor(index / 12), month: (index % 12) + 1 })
  }
  const focusDay = (d: JalaliDay) => {
    moved.current = true
    setFocused(d)
    setView({ year: d.year, month: d.month })
  }
  const onKey = (e: KeyboardEvent, d: JalaliDay) => {
    // In RTL the next day sits to the left.
    const rtl = getComputedStyle(e.currentTarget).direction !== 'ltr'
    const steps: Record<string, number> = {
      ArrowLeft: rtl ? 1 : -1, ArrowRight: rtl ? -1 : 1, ArrowDown: 7, ArrowUp: -7,
    }
    if (e.key in steps) {
      e.preventDefault()
      focusDay(addJalaliDays(d, steps[e.key]))
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault()
      const month = d.month + (e.key === 'PageDown' ? 1 : -1)
      const y = d.year + Math.floor((month - 1) / 12)
      const m = ((month - 1 + 12) % 12) + 1
      focusDay({ year: y, month: m, day: Math.min(d.day, jalaliMonthLength(y, m)) })
    }
  }

  const inView = focused.year === view.year && focused.month === view.month
  const tabDay = inView ? focused.day : 1

  return (
    <Stack gap="2" p="3" w="72">
      <HStack justify="space-between" gap="1">
        <IconButton size="xs" variant="ghost" aria-label="ماه قبل" onClick={() => shiftMonth(-1)}>
          <ChevronStartIcon />
        </IconButton>
        <HStack gap="1" flex="1" justify="center">
          <NativeSelect.Root size="xs" w="auto">
            <NativeSelect.Field aria-label="ماه" value={view.month} onChange={(e) => setView({ ...view, month: Number(e.target.value) })}>
              {JALALI_MONTHS.map((name, i) => <option key={name} value={i + 1}>{name}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <NativeSelect.Root size="xs" w="auto">
            <NativeSelect.Field aria-label="سال" value={view.year} onChange={(e) => setView({ ...view, year: Number(e.target.value) })}>
              {calendarYears(today.year).map((y) => <option key={y} value={y}>{toPersianDigits(y)}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </HStack>
        <IconButton size="xs" variant="ghost" aria-label="ماه بعد" onClick={() => shiftMonth(1)}>
          <ChevronEndIcon />
        </IconButton>
      </HStack>
      <Box as="table" ref={gridRef} role="grid" aria-label={toPersianDigits(`${JALALI_MONTHS[view.month - 1]} ${view.year}`)} w="full" style={{ borderCollapse: 'collapse' }}>
        <thead>
          <tr>
            {JALALI_WEEKDAYS_SHORT.map((w, i) => (
              <Box asChild key={w} fontSize="xs" fontWeight="medium" color="fg.muted" py="1">
                <th scope="col" abbr={JALALI_WEEKDAYS[i]}>{w}</th>
              </Box>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(view.year, view.month).map((week, wi) => (
            <tr key={wi}>
              {week.map((day, di) => {
                if (day === null) return <td key={di} />
                const d = { year: view.year, month: view.month, day }
                const selected = value ? compareJalaliDay(d, value) === 0 : false
                const isToday = compareJalaliDay(d, today) === 0
                return (
                  <Box as="td" key={di} p="0.5" textAlign="center" aria-selected={selected}>
                    <Button
                      size="xs"
                      w="8"
                      h="8"
                      minW="8"
                      rounded="full"
                      variant={selected ? 'solid' : isToday ? 'outline' : 'ghost'}
                      colorPalette={selected || isToday ? 'brand' : 'gray'}
                      fontWeight={isToday ? 'bold' : 'normal'}
                      aria-label={dayLabel(d) + (isToday ? ' (امروز)' : '')}
                      aria-pressed={selected}
                      data-focused={inView && day === focused.day ? '' : undefined}
                      tabIndex={day === tabDay ? 0 : -1}
                      disabled={outside(d)}
                      onClick={() => {
                        setFocused(d)
                        onSelect(d)
                      }}
                      onKeyDown={(e) => onKey(e, d)}
                    >
                      {toPersianDigits(day)}
                    </Button>
                  </Box>
                )
              })}
            </tr>
          ))}
        </tbody>
      </Box>
      {footer}
    </Stack>
  )
}
