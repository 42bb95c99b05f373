import { toPersianDigits } from '../../lib/digits'

/** «۰۹۱۲۱۲۳۴۵۶۷» for a stored 98… sender (a masked one is shown as it comes). */
export const displaySender = (s: string) => toPersianDigits(s.startsWith('98') && s.length === 12 ? `0${s.slice(2)}` : s)
