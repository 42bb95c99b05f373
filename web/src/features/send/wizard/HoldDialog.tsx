import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { ApiError } from '../../../lib/apiError'
import { OUTSIDE_HOURS, type SendHours } from '../api'

/** The next allowed time of a send refused outside its sending hours, or null for any other failure. */
export function outsideHoursNext(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.messageCode !== OUTSIDE_HOURS) return null
  const data = error.data as Partial<SendHours> | null
  return data?.next_allowed_at ?? null
}

const clock = new Intl.DateTimeFormat('fa-IR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Asia/Tehran' })
const day = new Intl.DateTimeFormat('fa-IR-u-ca-persian', { day: 'numeric', month: 'long', weekday: 'long', timeZone: 'Asia/Tehran' })

/** «۰۷:۰۰» and «سه‌شنبه ۱۱ آذر» of a time, in Tehran. */
export function tehranTime(iso: string): { time: string; day: string } {
  const d = new Date(iso)
  return { time: clock.format(d), day: day.format(d) }
}

interface Props {
  next: string | null
  onClose: () => void
  onHold: () => void
  loading: boolean
}

/** Asks whether a send made outside the sending hours is held until they open (hold_until_window). */
export function HoldDialog({ next, onClose, onHold, loading }: Props) {
  const at = next ? tehranTime(next) : null
  return (
    <ConfirmDialog
      open={!!at}
      onClose={onClose}
      title="ارسال خارج از ساعت مجاز"
      confirmLabel="نگه داشتن تا ساعت مجاز"
      colorPalette="brand"
      onConfirm={onHold}
      loading={loading}
      testId="hold-until-window"
    >
      {at && `ارسال خارج از ساعت مجاز ارسال خطوط تبلیغاتی است. ارسال تا ساعت ${at.time} (${at.day}) نگه داشته شود؟`}
    </ConfirmDialog>
  )
}
