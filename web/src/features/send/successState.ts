import type { SendResult } from './api'

/** What the send wizard hands the success page: the send and the method page it came from. */
export interface SuccessState extends SendResult {
  /** The path of the send method used, e.g. /send-sms/file. */
  from?: string
}

/**
 * Where «ارسال جدید» leads: back to the send method used (its page, without a resumed
 * draft's query), or the method list when the page was opened without that state.
 */
export function newSendPath(state: Partial<SuccessState> | null | undefined): string {
  const from = state?.from ?? ''
  return /^\/send-sms\/[a-z0-9/-]+$/.test(from) && !from.startsWith('/send-sms/success-send') ? from : '/send-sms'
}
