import { toPersianDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'
import { gregorianToJalali, JALALI_MONTHS, toJalaliParts } from '../lib/jalali'

/** How a chart shows a value: a count, rials, or a percentage. */
export type ValueFormat = 'number' | 'rial' | 'percent'

/**
 * An axis tick: short, Persian digits. Thousands become «هزار», millions «میلیون»,
 * billions «میلیارد» (one decimal when under ten of the unit).
 */
export function axisNumber(value: number): string {
  const abs = Math.abs(value)
  const units: Array<[number, string]> = [
    [1e9, 'میلیارد'],
    [1e6, 'میلیون'],
    [1e3, 'هزار'],
  ]
  for (const [size, word] of units) {
    if (abs >= size) {
      const n = value / size
      const rounded = Math.abs(n) < 10 ? Math.round(n * 10) / 10 : Math.round(n)
      return `${formatNumber(rounded)} ${word}`
    }
  }
  return formatNumber(Math.round(value * 10) / 10)
}

/** A tooltip value in full: «۱۲٬۳۴۵», «۱۲٬۳۴۵ ریال» or «۶۶٫۷٪». */
export function chartValue(value: number, format: ValueFormat = 'number'): string {
  if (!Number.isFinite(value)) return '—'
  if (format === 'rial') return `${formatNumber(Math.floor(value))} ریال`
  if (format === 'percent') return `${formatNumber(Math.round(value * 10) / 10)}٪`
  return formatNumber(value)
}

/** An axis tick's value in short: percentages keep their sign. */
export function axisValue(value: number, format: ValueFormat = 'number'): string {
  return format === 'percent' ? `${formatNumber(Math.round(value))}٪` : axisNumber(value)
}

/** Which value axis a series is drawn against: the main one (right, as Persian reads) or a second one (left). */
export type ChartAxisSide = 'main' | 'second'

/** One value axis of a chart: its id, its side, and the format and series it shows. */
export interface ValueAxis {
  id: ChartAxisSide
  orientation: 'right' | 'left'
  format: ValueFormat
  /** The names of the series on it (they label the axis). */
  names: string[]
  /** The palette index of its first series (its ticks take that colour when there are two axes). */
  color: number
}

/**
 * The value axes of a chart: one on the right for every series, or a second one on
 * the left when a series asks for it (two quantities of different size, such as
 * sends and their parts, each on its own scale so the small one does not look like
 * zero).
 */
export function valueAxes(series: Array<{ name: string; axis?: ChartAxisSide; format?: ValueFormat; color?: number }>, fallback: ValueFormat = 'number'): ValueAxis[] {
  const out: ValueAxis[] = []
  series.forEach((s, i) => {
    const id = s.axis ?? 'main'
    const at = out.find((a) => a.id === id)
    if (at) at.names.push(s.name)
    else out.push({ id, orientation: id === 'main' ? 'right' : 'left', format: s.format ?? fallback, names: [s.name], color: s.color ?? i })
  })
  if (!out.length) out.push({ id: 'main', orientation: 'right', format: fallback, names: [], color: 0 })
  return out.sort((a, b) => (a.id === b.id ? 0 : a.id === 'main' ? -1 : 1))
}

/** The Jalali date of a «YYYY-MM-DD» calendar day (already a Tehran day: no time-zone shift). */
function jalaliOfDay(day: string) {
  const [y, m, d] = day.split('-').map(Number)
  return gregorianToJalali(y, m, d)
}

/** A day on the x-axis: «۶ آذر». */
export function dayTick(day: string): string {
  const j = jalaliOfDay(day)
  return `${toPersianDigits(j.day)} ${JALALI_MONTHS[j.month - 1]}`
}

/** A day in a tooltip: «۶ آذر ۱۴۰۵». */
export function dayLabel(day: string): string {
  const j = jalaliOfDay(day)
  return `${toPersianDigits(j.day)} ${JALALI_MONTHS[j.month - 1]} ${toPersianDigits(j.year)}`
}

const pad = (n: number) => String(n).padStart(2, '0')

/** An instant on the x-axis: «۱۴:۰۵» in Tehran (with «۶ آذر» when the chart spans days, «۱۴:۰۵:۰۹» when it spans minutes). */
export function timeTick(iso: string, withDay = false, withSeconds = false): string {
  const d = new Date(iso)
  const p = toJalaliParts(d)
  const sec = withSeconds ? `:${pad(Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tehran', second: '2-digit' }).format(d)))}` : ''
  const time = toPersianDigits(`${pad(p.hour)}:${pad(p.minute)}${sec}`)
  return withDay ? `${toPersianDigits(p.day)} ${JALALI_MONTHS[p.month - 1]} ${time}` : time
}

/** The palette of the charts in each colour mode (SVG attributes need plain colours). */
export const CHART_COLORS = {
  light: { grid: '#e4e7ec', axis: '#667085', text: '#101828', surface: '#ffffff', series: ['#2563eb', '#16a34a', '#f59e0b', '#dc2626', '#7c3aed', '#0891b2'] },
  dark: { grid: '#2b3442', axis: '#98a2b3', text: '#f2f4f7', surface: '#1b2230', series: ['#60a5fa', '#4ade80', '#fbbf24', '#f87171', '#a78bfa', '#22d3ee'] },
} as const
