import { displayMobile } from '../../lib/mobile'

/** «۰۹۱۲۱۲۳۴۵۶۷» for a stored 98… sender (a masked one is shown as it comes). */
export const displaySender = displayMobile
