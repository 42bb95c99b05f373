import { recipientCounts, type BulkStats } from '../../lib/reports'

export interface Segment {
  key: 'delivered' | 'inflight' | 'undelivered' | 'blacklisted' | 'unpaid' | 'stopped' | 'pending'
  label: string
  color: string
  value: number
}

/**
 * Splits a send's recipients into the parts of the progress bar. "inflight" are recipients
 * submitted to the carrier whose final receipt has not arrived yet; "unpaid" (shown only
 * when there are some) were found after the send was priced and the credit could not pay
 * for them, so they were not sent; "stopped" (shown only when there are some) were left
 * unsent by a stop — the API counts them in rejected too, so they leave «نرسیده».
 */
export function progressSegments(s: Partial<BulkStats>): { total: number; processed: number; segments: Segment[] } {
  const { total, delivered, inflight, undelivered, blacklisted, unpaid, stopped, pending } = recipientCounts(s)
  return {
    total,
    processed: total - pending,
    segments: [
      { key: 'delivered', label: 'رسیده به گوشی', color: 'green', value: delivered },
      { key: 'inflight', label: 'ارسال شده (در انتظار گزارش)', color: 'blue', value: inflight },
      { key: 'undelivered', label: 'نرسیده به گوشی', color: 'red', value: undelivered },
      { key: 'blacklisted', label: 'لیست سیاه', color: 'gray', value: blacklisted },
      ...(unpaid > 0 ? [{ key: 'unpaid' as const, label: 'ارسال‌نشده (کمبود اعتبار)', color: 'purple', value: unpaid }] : []),
      ...(stopped > 0 ? [{ key: 'stopped' as const, label: 'متوقف‌شده', color: 'yellow', value: stopped }] : []),
      { key: 'pending', label: 'در صف ارسال', color: 'orange', value: pending },
    ],
  }
}

/** Percentage with one decimal at most, capped to 0..100. */
export function percentOf(value: number, total: number): number {
  if (!total) return 0
  return Math.min(100, Math.max(0, Math.round((value / total) * 1000) / 10))
}
