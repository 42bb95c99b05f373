import { formatNumber } from './format'

/** How a gradual send is paced (docs/sending-rules.md): off, N an hour, N a minute, or evenly until a time. */
export type GradualMode = 'off' | 'per_hour' | 'per_minute' | 'until'

/** The gradual part of every send wizard's draft. */
export interface GradualDraft {
  gradual: GradualMode
  /** The count an hour or a minute, as typed (Persian digits allowed). */
  gradualCount: string
  /** «HH:mm» Tehran time: the end of an «until» send, on the day the send starts. */
  gradualUntil: string | null
}

export const EMPTY_GRADUAL: GradualDraft = { gradual: 'off', gradualCount: '', gradualUntil: null }

/** `gradual` of POST /send and /send/calculate-price. */
export type GradualBody = { per_hour: number } | { per_minute: number } | { until: string }

/** The engine's bounds (pkg/send gradual.go). */
export const PER_HOUR = { min: 10, max: 500_000 }
export const PER_MINUTE = { min: 1, max: 8_333 }

const count = (s: string) => Number(s.replace(/[۰-۹]/g, (c) => String(c.charCodeAt(0) - 0x06f0)).trim())

/** The Tehran calendar day of t as YYYY-MM-DD. */
function tehranDay(t: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tehran', year: 'numeric', month: '2-digit', day: '2-digit' }).format(t)
}

/** Why the gradual settings cannot be sent, or undefined. */
export function gradualError(d: Partial<GradualDraft>): string | undefined {
  if (!isGradual(d)) return undefined
  if (d.gradual === 'until') return /^([01]\d|2[0-3]):[0-5]\d$/.test(d.gradualUntil ?? '') ? undefined : 'ساعت پایان ارسال تدریجی را انتخاب کنید'
  const n = count(d.gradualCount ?? '')
  const b = d.gradual === 'per_hour' ? PER_HOUR : PER_MINUTE
  if (!Number.isInteger(n) || n < b.min || n > b.max) {
    const unit = d.gradual === 'per_hour' ? 'در ساعت' : 'در دقیقه'
    return `تعداد ${unit} باید بین ${formatNumber(b.min)} و ${formatNumber(b.max)} باشد`
  }
  return undefined
}

/** Whether a draft asks for a gradual send. */
export function isGradual(d: Partial<GradualDraft>): boolean {
  return !!d.gradual && d.gradual !== 'off'
}

/** The body's `gradual` (undefined when off or not valid yet); an «until» time is on the send's start day. */
export function gradualValue(d: Partial<GradualDraft>, start: Date | null): GradualBody | undefined {
  if (!isGradual(d) || gradualError(d)) return undefined
  if (d.gradual === 'until') return { until: `${tehranDay(start ?? new Date())}T${d.gradualUntil}:00+03:30` }
  const n = count(d.gradualCount ?? '')
  return d.gradual === 'per_hour' ? { per_hour: n } : { per_minute: n }
}
