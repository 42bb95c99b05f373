/** Persian names of the webhook events (docs/webhooks.md). */
export const EVENT_TITLES: Record<string, string> = {
  'delivery.receipt': 'گزارش تحویل پیامک',
  'inbound.message': 'پیامک دریافتی',
  'send.status': 'تغییر وضعیت ارسال',
  'webhook.test': 'رویداد آزمایشی',
}

export const eventTitle = (e: string) => EVENT_TITLES[e] ?? e

/** Delivery states: their names and badge colours. */
export const DELIVERY_STATUS: Record<string, { title: string; color: string }> = {
  pending: { title: 'در صف / تلاش دوباره', color: 'orange' },
  delivered: { title: 'تحویل شد', color: 'green' },
  dead: { title: 'ناموفق (صف خطا)', color: 'red' },
}

/** Pretty-prints a JSON body; anything else (truncated, form-encoded) is shown as it is. */
export function prettyBody(body: string): string {
  if (!body) return ''
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/** The badge colour of an HTTP status. */
export function statusColor(status: number): string {
  if (status >= 500) return 'red'
  if (status >= 400) return 'orange'
  return 'green'
}
